/**
 * Per-key concurrency (docs/webhooks.md#per-key-concurrency): `concurrency.key` and `keyLimit`
 * (default 1): at most `keyLimit` executions of one key at once, first in first out per key, while
 * other keys go on, still at most `limit` in all; kept across a restart; bad settings refused.
 */
import { describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { restart } from "../helpers/flow-gather";
import { ECHO_URL, echoGates, execution, hook } from "../helpers/workflows";

const { gate, hits, release } = echoGates("keys");
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Each execution waits at the echo server on its call's gate until released. */
async function createKeyed(ws: Workspace, concurrency: object) {
  const created = await call("POST", "/v1/manage/workflows", {
    token: ws.ownerToken,
    body: {
      name: "Keyed",
      slug: `keyed-${Math.random().toString(36).slice(2, 8)}`,
      nodes: [
        { type: "webhook" },
        {
          key: "gate",
          type: "http_request",
          method: "GET",
          url: `${ECHO_URL}/hold/{{webhook_1.body.gate}}`,
        },
      ],
      connections: [{ from: "webhook_1", to: "gate" }],
      concurrency,
    },
  });
  const flow = await expectJson<{
    id: string;
    webhookUrls: { webhook_1: string };
    concurrency: unknown;
  }>(created, 201);
  await call("POST", `/v1/manage/workflows/${flow.id}/start`, { token: ws.ownerToken });
  return flow;
}

/** Calls the workflow for `customer` (none: no customer field) held at gate `name`. */
async function send(url: string, name: string, customer?: string) {
  const answer = await hook(url, { body: { gate: gate(name), customer } });
  const { executionId } = await expectJson<{ executionId: string }>(answer, 200);
  return { executionId, status: answer.headers.get("x-execution-status") };
}

const KEY = "{{webhook_1.body.customer}}";

describe("per-key concurrency", () => {
  it("runs one of a key at a time, in order, while other keys go on; limit still holds", async () => {
    const ws = await seedWorkspace();
    const flow = await createKeyed(ws, { limit: 2, key: KEY });
    expect(flow.concurrency).toEqual({ limit: 2, queueLimit: 1_000, key: KEY, keyLimit: 1 });
    const url = flow.webhookUrls.webhook_1;
    const a1 = await send(url, "a1", "a");
    const a2 = await send(url, "a2", "a");
    const b1 = await send(url, "b1", "b");
    const c1 = await send(url, "c1", "c");
    // a2 waits for its key; b1 goes on; c1 waits for the overall limit (a1 and b1 run).
    expect([a1.status, a2.status, b1.status, c1.status]).toEqual([null, "queued", null, "queued"]);
    await vi.waitFor(async () => expect([await hits("a1"), await hits("b1")]).toEqual([1, 1]));
    await settle();
    expect([await hits("a2"), await hits("c1")]).toEqual([0, 0]);
    expect((await execution(ws, flow.id, a2.executionId)).status).toBe("queued");

    // a1 done: a2, first in the queue and its key free, takes the slot; c1 still waits.
    await release("a1");
    await vi.waitFor(async () => expect(await hits("a2")).toBe(1));
    await settle();
    expect(await hits("c1")).toBe(0);
    await release("b1");
    await vi.waitFor(async () => expect(await hits("c1")).toBe(1));
    await release("a2");
    await release("c1");
  });

  it('counts a key that renders empty under "", and keyLimit lets that many run', async () => {
    const ws = await seedWorkspace();
    const flow = await createKeyed(ws, { limit: 10, key: KEY, keyLimit: 2 });
    const url = flow.webhookUrls.webhook_1;
    const sent = [await send(url, "e1"), await send(url, "e2"), await send(url, "e3")];
    expect(sent.map((each) => each.status)).toEqual([null, null, "queued"]);
    await vi.waitFor(async () => expect([await hits("e1"), await hits("e2")]).toEqual([1, 1]));
    await settle();
    expect(await hits("e3")).toBe(0);
    await release("e2");
    await vi.waitFor(async () => expect(await hits("e3")).toBe(1));
    await release("e1");
    await release("e3");
  });

  it("keeps each key's queue and order across a restart of the runner", async () => {
    const ws = await seedWorkspace();
    const flow = await createKeyed(ws, { limit: 10, key: KEY });
    const url = flow.webhookUrls.webhook_1;
    await send(url, "r1", "r");
    const r2 = await send(url, "r2", "r");
    const r3 = await send(url, "r3", "r");
    expect([r2.status, r3.status]).toEqual(["queued", "queued"]);
    await vi.waitFor(async () => expect(await hits("r1")).toBe(1));
    await restart(flow.id);
    // Looking wakes the restarted runner, which takes up r1's interrupted call again.
    expect((await execution(ws, flow.id, r3.executionId)).status).toBe("queued");
    // Without the keys kept, the restarted runner would start r2 and r3 together (limit 10).
    await release("r1");
    await vi.waitFor(async () => expect(await hits("r2")).toBe(1), { timeout: 15_000 });
    await settle();
    expect(await hits("r3")).toBe(0);
    await release("r2");
    await vi.waitFor(async () => expect(await hits("r3")).toBe(1), { timeout: 15_000 });
    await release("r3");
  });

  it("refuses keyLimit without a key, and out of range", async () => {
    const ws = await seedWorkspace();
    for (const [concurrency, field] of [
      [{ limit: 1, keyLimit: 2 }, "concurrency.keyLimit"],
      [{ limit: 1, key: KEY, keyLimit: 0 }, "concurrency.keyLimit"],
      [{ limit: 1, key: KEY, keyLimit: 101 }, "concurrency.keyLimit"],
      [{ limit: 1, key: "" }, "concurrency.key"],
    ] as const) {
      const refused = await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        body: { name: "Bad", slug: "bad-keys", nodes: [{ type: "webhook" }], concurrency },
      });
      expect(refused.status).toBe(400);
      const { error } = (await refused.json()) as { error: { details: { field: string }[] } };
      expect(error.details.map((detail) => detail.field)).toEqual([field]);
    }
  });
});
