/**
 * A webhook node's `throttle` (docs/webhooks.md#throttle): at most `limit` starts per sliding
 * period, per key; later calls are queued (not refused) and started by the alarm when the window
 * has room, also after a restart, whose start times are kept; 429 queue_full past the queue's
 * limit; test runs are not throttled; bad settings refused.
 */
import { describe, expect, it, vi } from "vitest";
import { call, errorCode, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { outcomes, restart } from "../helpers/flow-gather";
import { createWorkflow, execution, hook } from "../helpers/workflows";

const PERIOD_MS = 2_000;

async function throttled(ws: Workspace, throttle: object, concurrency?: object) {
  const flow = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", throttle },
      { key: "done", type: "set", fields: { ok: true } },
    ],
    connections: [{ from: "webhook_1", to: "done" }],
    ...(concurrency ? { concurrency } : {}),
  });
  return { id: flow.id, url: flow.webhookUrls.webhook_1 as string };
}

async function send(url: string, body: object) {
  const answer = await hook(url, { body });
  const { executionId } = await expectJson<{ executionId: string }>(answer, 200);
  return { executionId, status: answer.headers.get("x-execution-status") };
}

const finished = (ws: Workspace, workflowId: string, id: string) =>
  vi.waitFor(
    async () => {
      const record = await execution(ws, workflowId, id);
      if (record.status !== "succeeded") throw new Error(`still ${record.status}`);
      return record;
    },
    { timeout: 10_000, interval: 100 },
  );

describe("throttle", () => {
  it("queues calls past the limit and starts them when the period has room, per key", async () => {
    const ws = await seedWorkspace();
    const flow = await throttled(ws, {
      limit: 1,
      periodSeconds: PERIOD_MS / 1000,
      key: "{{webhook_1.body.account}}",
    });
    const a1 = await send(flow.url, { account: "a" });
    const a2 = await send(flow.url, { account: "a" });
    const b1 = await send(flow.url, { account: "b" });
    expect([a1.status, a2.status, b1.status]).toEqual([null, "queued", null]);
    expect((await execution(ws, flow.id, a2.executionId)).status).toBe("queued");
    const first = await finished(ws, flow.id, a1.executionId);
    const second = await finished(ws, flow.id, a2.executionId);
    // Never two of one key started within a period: the second waited for the window.
    expect(Date.parse(second.startedAt) - Date.parse(first.startedAt)).toBeGreaterThanOrEqual(
      PERIOD_MS - 5,
    );
    await finished(ws, flow.id, b1.executionId);
    expect((await outcomes(ws, flow.id)).map(([outcome]) => outcome)).toEqual([
      "accepted",
      "queued",
      "accepted",
    ]);
  });

  it("keeps its window and its queue across a restart of the runner", async () => {
    const ws = await seedWorkspace();
    const flow = await throttled(ws, { limit: 1, periodSeconds: PERIOD_MS / 1000 });
    const c1 = await send(flow.url, {});
    await finished(ws, flow.id, c1.executionId);
    await restart(flow.id);
    // The restarted runner still knows c1 started in this period: c2 waits.
    const c2 = await send(flow.url, {});
    expect(c2.status).toBe("queued");
    const c3 = await send(flow.url, {});
    await restart(flow.id);
    expect((await execution(ws, flow.id, c3.executionId)).status).toBe("queued");
    const second = await finished(ws, flow.id, c2.executionId);
    const third = await finished(ws, flow.id, c3.executionId);
    expect(Date.parse(third.startedAt) - Date.parse(second.startedAt)).toBeGreaterThanOrEqual(
      PERIOD_MS - 5,
    );
  });

  it("answers 429 queue_full past the queue's limit", async () => {
    const ws = await seedWorkspace();
    const flow = await throttled(ws, { limit: 1, periodSeconds: 60 }, { limit: 10, queueLimit: 1 });
    expect((await send(flow.url, {})).status).toBeNull();
    expect((await send(flow.url, {})).status).toBe("queued");
    const refused = await hook(flow.url, { body: {} });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await errorCode(refused)).toBe("queue_full");
  });

  it("refuses bad settings", async () => {
    const ws = await seedWorkspace();
    for (const [throttle, field] of [
      [{ limit: 0, periodSeconds: 1 }, "throttle.limit"],
      [{ limit: 1_001, periodSeconds: 1 }, "throttle.limit"],
      [{ limit: 1, periodSeconds: 86_401 }, "throttle.periodSeconds"],
      [{ limit: 1 }, "throttle.periodSeconds"],
      [{ limit: 1, periodSeconds: 1, extra: true }, "throttle.extra"],
    ] as const) {
      const refused = await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        body: { name: "Bad", slug: "bad-throttle", nodes: [{ type: "webhook", throttle }] },
      });
      expect(refused.status).toBe(400);
      const { error } = (await refused.json()) as { error: { details: { field: string }[] } };
      expect(error.details.map((detail) => detail.field)).toEqual([`nodes[0].${field}`]);
    }
  });
});
