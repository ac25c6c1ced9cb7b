/**
 * Batch (docs/webhooks.md#batch): calls gather into one execution whose trigger output is
 * `{items: [{body, headers, queryParams, method, receivedAt}]}`, started at maxSize calls or
 * maxWaitSeconds after the first; each call is answered at once with the batch's id; per key;
 * durable, deduplicated first, logged `batched`, on one shard, refused at save with a held caller.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { WorkflowDefinition } from "../../src/workflows/nodes/types";
import { shardCount } from "../../src/workflows/runner/shards";
import { StateBox, stateAad } from "../../src/workflows/runner/state-box";
import { call, seedWorkspace, type Workspace } from "../helpers/api";
import {
  alarmAt,
  listedIds,
  outcomes,
  restart,
  runner,
  send,
  succeeded,
} from "../helpers/flow-gather";
import { createWorkflow, execution, hook } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

function batched(batch: object, webhook: object = {}) {
  return {
    nodes: [
      { type: "webhook", batch, ...webhook },
      { key: "done", type: "set", fields: { first: "{{webhook_1.items.0.body.n}}" } },
    ],
    connections: [{ from: "webhook_1", to: "done" }],
  };
}

type ListPage = {
  data: { id: string; status: string }[];
  hasMore: boolean;
  nextCursor: string | null;
};

type Item = {
  body: { n: number };
  headers: object;
  queryParams: object;
  method: string;
  receivedAt: string;
};

describe("batch", () => {
  it("starts at maxSize with every call as an item, each answered with the batch's id", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 3, maxWaitSeconds: 3_600 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await send(`${url}?n=${n}`, { n })).executionId);
    expect(new Set(ids).size).toBe(1);
    const id = ids[0] as string;
    // The third call filled it: it starts without waiting for the alarm.
    const { output, record } = await succeeded(ws, flow.id, id);
    const { items } = output as { items: Item[] };
    expect(items.map((item) => item.body.n)).toEqual([1, 2, 3]);
    expect(Object.keys(items[0] as Item).sort()).toEqual(
      ["body", "headers", "method", "queryParams", "receivedAt"].sort(),
    );
    expect(items[1]).toMatchObject({ method: "POST", queryParams: { n: "2" } });
    expect((items[0] as Item).headers).toMatchObject({ "content-type": "application/json" });
    expect(Date.parse((items[0] as Item).receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(record.nodes.find((node) => node.key === "done")?.output).toEqual({ first: 1 });
    expect(await outcomes(ws, flow.id)).toEqual([
      ["batched", id],
      ["batched", id],
      ["batched", id],
    ]);
    expect(await listedIds(ws, flow.id)).toEqual([id]);
    // The next call opens the next batch.
    const next = await send(url, { n: 4 });
    expect(next.executionId).not.toBe(id);
    expect(next.debounced).toBeNull();
    // The waiting batch is listed first; a cursor pages on from it to the stored executions.
    const list = (cursor?: string) =>
      call(
        "GET",
        `/v1/manage/workflows/${flow.id}/executions?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        { token: ws.ownerToken },
      ).then((answer) => answer.json() as Promise<ListPage>);
    const first = await list();
    expect(first.data.map((each) => [each.id, each.status])).toEqual([
      [next.executionId, "queued"],
    ]);
    expect(first.hasMore).toBe(true);
    const second = await list(first.nextCursor ?? "");
    expect(second.data.map((each) => each.id)).toEqual([id]);
    expect(second.hasMore).toBe(false);
  });

  it("starts maxWaitSeconds after its first call with what came; keys gather apart", async () => {
    const flow = await createWorkflow(
      ws,
      batched({ maxSize: 10, maxWaitSeconds: 30, key: "{{webhook_1.body.k}}" }),
    );
    const url = flow.webhookUrls.webhook_1 as string;
    const t0 = Date.now();
    const a1 = await send(url, { k: "a", n: 1 });
    const b1 = await send(url, { k: "b", n: 2 });
    const a2 = await send(url, { k: "a", n: 3 });
    const none = await send(url, { n: 4 });
    expect(a2.executionId).toBe(a1.executionId);
    expect(new Set([a1.executionId, b1.executionId, none.executionId]).size).toBe(3);
    expect((await execution(ws, flow.id, a1.executionId)).status).toBe("queued");
    await alarmAt(flow.id, t0 + 20_000);
    expect((await execution(ws, flow.id, a1.executionId)).status).toBe("queued");
    await alarmAt(flow.id, t0 + 31_000);
    const numbers = async (id: string) =>
      ((await succeeded(ws, flow.id, id)).output as { items: Item[] }).items.map((i) => i.body.n);
    expect(await numbers(a1.executionId)).toEqual([1, 3]);
    expect(await numbers(b1.executionId)).toEqual([2]);
    expect(await numbers(none.executionId)).toEqual([4]);
  });

  it("starts early when its calls' data would pass 512 KiB; that call opens the next batch", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 10, maxWaitSeconds: 3_600 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const big = "x".repeat(150_000);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await send(url, { n, big })).executionId);
    // Sealed, three such calls are over 512 KiB: the third opened a batch of its own.
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    const { output } = await succeeded(ws, flow.id, ids[0] as string);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([1, 2]);
  });

  it("shows each item's credential headers redacted, as a call's are", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 2, maxWaitSeconds: 3_600 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const auth = { authorization: "Basic dXNlcjpwYXNzd29yZA==" };
    const { executionId } = await send(url, { n: 1 }, auth);
    await send(url, { n: 2 }, auth);
    const { output, record } = await succeeded(ws, flow.id, executionId);
    const items = (output as { items: { headers: Record<string, string> }[] }).items;
    expect(items.map((item) => item.headers.authorization)).toEqual(["[redacted]", "[redacted]"]);
    expect(JSON.stringify(record)).not.toContain("dXNlcjpwYXNzd29yZA==");
  });

  it("keeps its calls across a restart and an eviction", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 3, maxWaitSeconds: 60 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { n: 1 });
    await restart(flow.id);
    await send(url, { n: 2 });
    await evictDurableObject(runner(flow.id));
    const third = await send(url, { n: 3 });
    expect(third.executionId).toBe(first.executionId);
    const { output } = await succeeded(ws, flow.id, first.executionId);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([1, 2, 3]);
  });

  it("dedupes before it gathers: a repeated delivery is not an item twice", async () => {
    const dedupe = { key: "{{webhook_1.body.id}}" };
    const flow = await createWorkflow(ws, batched({ maxSize: 2, maxWaitSeconds: 60 }, { dedupe }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { id: "x", n: 1 });
    const repeat = await send(url, { id: "x", n: 1 });
    expect(repeat).toMatchObject({ executionId: first.executionId, deduplicated: "true" });
    expect((await execution(ws, flow.id, first.executionId)).status).toBe("queued");
    await send(url, { id: "y", n: 2 });
    const { output } = await succeeded(ws, flow.id, first.executionId);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([1, 2]);
    expect((await outcomes(ws, flow.id)).map(([outcome]) => outcome)).toEqual([
      "batched",
      "deduplicated",
      "batched",
    ]);
  });

  it("an erasure drops the waiting calls that carry the person", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 5, maxWaitSeconds: 60 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { customer: "cus_gone_7", n: 1 });
    await send(url, { customer: "cus_kept_7", n: 2 });
    const erasing = await call("POST", "/v1/manage/erasures", {
      token: ws.ownerToken,
      body: { externalId: "cus_gone_7" },
    });
    const { id } = (await erasing.json()) as { id: string };
    await vi.waitFor(
      async () => {
        const answer = await call("GET", `/v1/manage/erasures/${id}`, { token: ws.ownerToken });
        expect(((await answer.json()) as { status: string }).status).toBe("succeeded");
      },
      { timeout: 10_000, interval: 50 },
    );
    await alarmAt(flow.id, Date.now() + 61_000);
    const { output } = await succeeded(ws, flow.id, first.executionId);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([2]);
  });

  it("a reseal seals its waiting calls again under the current key", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 2, maxWaitSeconds: 60 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { n: 1 });
    const page = await runInDurableObject(runner(flow.id), async (instance, state) => {
      const { sql } = state.storage;
      const [stored] = sql
        .exec<{ call_id: string; data: string }>("SELECT * FROM gathered_calls")
        .toArray();
      const aad = stateAad(flow.id, stored?.call_id ?? "");
      // As sealed before sealed values named their key (docs/security.md#rotating-keys).
      const plain = await new StateBox(env).open(stored?.data ?? "", aad);
      const legacy = `sealed:v1:${await legacySeal(plain, aad)}`;
      sql.exec("UPDATE gathered_calls SET data = ?", legacy);
      const resealed = await instance.resealRecords(null, 10);
      const [now] = sql.exec<{ data: string }>("SELECT data FROM gathered_calls").toArray();
      return { resealed, named: now?.data.startsWith("sealed:v1:k1.") };
    });
    expect(page).toMatchObject({ resealed: { executions: 1 }, named: true });
    await send(url, { n: 2 });
    const { output } = await succeeded(ws, flow.id, first.executionId);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([1, 2]);
  });

  it("a builder's test run of a batch node runs with a batch of one", async () => {
    const flow = await createWorkflow(ws, batched({ maxSize: 5, maxWaitSeconds: 60 }), {
      start: false,
    });
    const armed = await call("POST", `/v1/manage/workflows/${flow.id}/nodes/webhook_1/capture`, {
      token: ws.ownerToken,
      body: { run: true },
    });
    expect(armed.status).toBe(201);
    const answer = await hook(flow.webhookTestUrls.webhook_1 as string, { body: { n: 7 } });
    const { executionId } = (await answer.json()) as { executionId: string };
    const { output, record } = await succeeded(ws, flow.id, executionId);
    expect((output as { items: Item[] }).items.map((item) => item.body.n)).toEqual([7]);
    expect(record.nodes.find((node) => node.key === "done")?.output).toEqual({ first: 7 });
  });

  it("runs on one shard, and is refused at save with a held caller or out of range", async () => {
    const hot = { type: "webhook", key: "webhook_1", rateLimitPerMinute: 100_000 };
    const definition = (extra: object) =>
      ({ nodes: [{ ...hot, ...extra }], connections: [] }) as unknown as WorkflowDefinition;
    expect(shardCount(definition({}))).toBeGreaterThan(1);
    expect(shardCount(definition({ batch: { maxSize: 2, maxWaitSeconds: 1 } }))).toBe(1);
    expect(shardCount(definition({ debounce: { key: "", periodSeconds: 1 } }))).toBe(1);

    const refused = async (webhook: object) => {
      const answer = await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        body: {
          name: "Bad",
          slug: `bad-${Math.random().toString(36).slice(2, 8)}`,
          nodes: [{ type: "webhook", ...webhook }],
          connections: [],
        },
      });
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as {
        error: { details: { field: string; code: string }[] };
      };
      return error.details;
    };
    const batch = { maxSize: 2, maxWaitSeconds: 5 };
    for (const responseMode of ["lastNode", "responseNode"]) {
      expect(await refused({ batch, responseMode })).toContainEqual(
        expect.objectContaining({ field: "nodes[0].batch", code: "not_allowed" }),
      );
    }
    const fields = (await refused({ batch: { maxSize: 1, maxWaitSeconds: 3_601 } })).map(
      (detail) => [detail.field, detail.code],
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        ["nodes[0].batch.maxSize", "out_of_range"],
        ["nodes[0].batch.maxWaitSeconds", "out_of_range"],
      ]),
    );
  });
});

/** A value as sealed before key ids: `base64(iv || ciphertext || tag)` under SECRETS_KEY. */
async function legacySeal(plaintext: string, aad: string): Promise<string> {
  const raw = Uint8Array.from(atob(env.SECRETS_KEY as string), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const additionalData = new TextEncoder().encode(aad);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData },
      key,
      new TextEncoder().encode(plaintext),
    ),
  );
  return btoa(String.fromCharCode(...iv, ...sealed));
}
