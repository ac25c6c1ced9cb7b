/**
 * Debounce (docs/webhooks.md#debounce): calls of one key within the period merge into one
 * execution that runs with the newest call's data once the period passes quietly (or at
 * maxWaitSeconds); each call is answered at once with its id, merged ones with `x-debounced`; it is
 * durable, logged, shown queued before it runs, refused at save with a held caller.
 */
import { evictDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, seedWorkspace, type Workspace } from "../helpers/api";
import {
  alarmAt,
  at,
  listedIds,
  outcomes,
  restart,
  runner,
  send,
  succeeded,
} from "../helpers/flow-gather";
import { createWorkflow, execution } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

const MINUTE = 60_000;

function debounced(debounce: object, webhook: object = {}) {
  return {
    nodes: [
      { type: "webhook", debounce, ...webhook },
      { key: "done", type: "set", fields: { n: "{{webhook_1.body.n}}" } },
    ],
    connections: [{ from: "webhook_1", to: "done" }],
  };
}

const byCustomer = { key: "{{webhook_1.body.customer}}", periodSeconds: 60 };

describe("debounce", () => {
  it("merges a key's calls into one execution that runs with the newest call's data", async () => {
    const flow = await createWorkflow(ws, debounced(byCustomer));
    const url = flow.webhookUrls.webhook_1 as string;
    const t0 = Date.now();
    const first = await send(url, { customer: "c1", n: 1 });
    const merged = await send(url, { customer: "c1", n: 2 });
    const other = await send(url, { customer: "c2", n: 3 });
    expect(first.debounced).toBeNull();
    expect(merged).toMatchObject({ executionId: first.executionId, debounced: "true" });
    expect(other.executionId).not.toBe(first.executionId);
    expect(other.debounced).toBeNull();

    // Before it runs: GET answers it queued, and the list shows it, waiting executions first.
    const waiting = await execution(ws, flow.id, first.executionId);
    expect(waiting).toMatchObject({ status: "queued", nodes: [], finishedAt: null });
    expect(await listedIds(ws, flow.id)).toEqual([other.executionId, first.executionId]);
    expect(await outcomes(ws, flow.id)).toEqual([
      ["accepted", first.executionId],
      ["debounced", first.executionId],
      ["accepted", other.executionId],
    ]);

    // Not yet quiet for a period: nothing starts.
    await alarmAt(flow.id, t0 + 30_000);
    expect((await execution(ws, flow.id, first.executionId)).status).toBe("queued");
    expect(await alarmAt(flow.id, t0 + MINUTE + 1_000)).toBe(true);
    const ran = await succeeded(ws, flow.id, first.executionId);
    expect(ran.output).toMatchObject({ body: { customer: "c1", n: 2 }, method: "POST" });
    expect(ran.record.nodes.find((node) => node.key === "done")?.output).toEqual({ n: 2 });
    expect((await succeeded(ws, flow.id, other.executionId)).output).toMatchObject({
      body: { n: 3 },
    });
    expect((await listedIds(ws, flow.id)).sort()).toEqual(
      [first.executionId, other.executionId].sort(),
    );
    // The key's next call opens a new execution.
    const next = await send(url, { customer: "c1", n: 4 });
    expect(next.executionId).not.toBe(first.executionId);
    expect(next.debounced).toBeNull();
  });

  it("a newer call pushes the start back a period, maxWaitSeconds caps it", async () => {
    const flow = await createWorkflow(ws, debounced({ ...byCustomer, maxWaitSeconds: 100 }));
    const url = flow.webhookUrls.webhook_1 as string;
    const t0 = Date.now();
    const first = await send(url, { customer: "c", n: 1 });
    await at(t0 + 50_000, () => send(url, { customer: "c", n: 2 }));
    // Quiet since t0 + 50 s: a period after the first call is not enough.
    await alarmAt(flow.id, t0 + 70_000);
    expect((await execution(ws, flow.id, first.executionId)).status).toBe("queued");
    await at(t0 + 95_000, () => send(url, { customer: "c", n: 3 }));
    // Due at t0 + 155 s by the period, but maxWaitSeconds (100) after the first call caps it.
    await alarmAt(flow.id, t0 + 101_000);
    expect((await succeeded(ws, flow.id, first.executionId)).output).toMatchObject({
      body: { n: 3 },
    });
  });

  it("a call after the quiet period opens the next execution, even before the alarm fired", async () => {
    const flow = await createWorkflow(ws, debounced(byCustomer));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { customer: "late", n: 1 });
    const next = await at(Date.now() + MINUTE + 1_000, () => send(url, { customer: "late", n: 2 }));
    expect(next.executionId).not.toBe(first.executionId);
    expect(next.debounced).toBeNull();
    // The late call started the due one: it ran with its own data, not the newer call's.
    expect((await succeeded(ws, flow.id, first.executionId)).output).toMatchObject({
      body: { n: 1 },
    });
  });

  it('counts a key that renders empty under ""', async () => {
    const flow = await createWorkflow(
      ws,
      debounced({ ...byCustomer, key: "{{webhook_1.body.none}}" }),
    );
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { n: 1 });
    const second = await send(url, { n: 2, customer: "ignored" });
    expect(second).toMatchObject({ executionId: first.executionId, debounced: "true" });
    await alarmAt(flow.id, Date.now() + MINUTE + 1_000);
    expect((await succeeded(ws, flow.id, first.executionId)).output).toMatchObject({
      body: { n: 2 },
    });
  });

  it("keeps its gatherings across a restart and an eviction", async () => {
    const flow = await createWorkflow(ws, debounced(byCustomer));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { customer: "r", n: 1 });
    await restart(flow.id);
    const merged = await send(url, { customer: "r", n: 2 });
    expect(merged).toMatchObject({ executionId: first.executionId, debounced: "true" });
    await evictDurableObject(runner(flow.id));
    expect((await execution(ws, flow.id, first.executionId)).status).toBe("queued");
    expect(await alarmAt(flow.id, Date.now() + MINUTE + 1_000)).toBe(true);
    expect((await succeeded(ws, flow.id, first.executionId)).output).toMatchObject({
      body: { n: 2 },
    });
  });

  it("dedupes before it merges: a repeated delivery is answered as the first", async () => {
    const dedupe = { key: "{{webhook_1.headers.x-delivery}}" };
    const flow = await createWorkflow(ws, debounced(byCustomer, { dedupe }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await send(url, { customer: "d", n: 1 }, { "x-delivery": "1" });
    const merged = await send(url, { customer: "d", n: 2 }, { "x-delivery": "2" });
    const repeat = await send(url, { customer: "d", n: 9 }, { "x-delivery": "2" });
    expect(repeat).toMatchObject({ executionId: first.executionId, deduplicated: "true" });
    expect(merged.executionId).toBe(first.executionId);
    expect((await outcomes(ws, flow.id)).map(([outcome]) => outcome)).toEqual([
      "accepted",
      "debounced",
      "deduplicated",
    ]);
    await alarmAt(flow.id, Date.now() + MINUTE + 1_000);
    expect((await succeeded(ws, flow.id, first.executionId)).output).toMatchObject({
      body: { n: 2 },
    });
  });

  it("is refused at save with a held caller, with batch, or out of range", async () => {
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
        error: { details: { field: string; code: string; message: string }[] };
      };
      return error.details;
    };
    for (const responseMode of ["lastNode", "responseNode"]) {
      const details = await refused({ debounce: byCustomer, responseMode });
      expect(details).toContainEqual({
        field: "nodes[0].debounce",
        code: "not_allowed",
        message: expect.stringContaining(`needs responseMode "immediate", not "${responseMode}"`),
      });
    }
    const both = await refused({ debounce: byCustomer, batch: { maxSize: 2, maxWaitSeconds: 5 } });
    expect(both).toContainEqual(
      expect.objectContaining({ field: "nodes[0].batch", code: "not_allowed" }),
    );
    const range = await refused({ debounce: { key: "k", periodSeconds: 86_401 } });
    expect(range).toContainEqual(
      expect.objectContaining({ field: "nodes[0].debounce.periodSeconds", code: "out_of_range" }),
    );
  });
});
