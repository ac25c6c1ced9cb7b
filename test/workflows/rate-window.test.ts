/**
 * A webhook node's rate limit counted in memory, its times kept in the request log's entries
 * (docs/scaling.md#rate-limits, docs/performance.md#counts-per-call): exact across a restart of
 * the runner, rebuilt from the log, from the times written on their own, and from the values of
 * runners before issue 33.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NodeRateLimits, UNLOGGED_MS } from "../../src/workflows/runner/rate-window";
import { RequestLog } from "../../src/workflows/runner/request-log";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, hook } from "../helpers/workflows";

const LIMITED = (rateLimitPerMinute: number) => ({
  nodes: [
    { type: "webhook", responseMode: "immediate", rateLimitPerMinute },
    { key: "done", type: "set", fields: { ok: true } },
  ],
  connections: [{ from: "webhook_1", to: "done" }],
});

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));
const restart = async (workflowId: string) =>
  await runInDurableObject(runner(workflowId), (_o, state) => state.abort("test restart")).catch(
    () => undefined,
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A storage of its own: a runner object no workflow uses. */
const scratch = () => env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.newUniqueId());

describe("a webhook node's rate limit across a restart of its runner", () => {
  it("still counts the calls of the last minute: the window is rebuilt from the request log", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, LIMITED(3));
    const url = flow.webhookUrls.webhook_1 as string;
    for (let i = 0; i < 3; i++) expect((await hook(url, { body: { i } })).status).toBe(200);
    // The log is read once, so its values are written before the restart.
    const path = `/v1/manage/workflows/${flow.id}/requests`;
    const logged = await expectJson<{ data: Record<string, unknown>[] }>(
      await call("GET", path, { token: ws.ownerToken }),
      200,
    );
    expect(logged.data).toHaveLength(3);
    // The counted time is stored with the entry, never shown.
    for (const entry of logged.data) expect(entry).not.toHaveProperty("rateAt");
    await restart(flow.id);
    const refused = await hook(url, { body: { i: 4 } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("counts a call whose log entry could not be written: its time is written on its own", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, LIMITED(1));
    const url = flow.webhookUrls.webhook_1 as string;
    // The secrets the entry is redacted with fail to load, once the call was counted.
    await runInDurableObject(runner(flow.id), (instance) => {
      const source = (instance as unknown as { source: { secretValues: () => unknown } }).source;
      const secretValues = source.secretValues.bind(source);
      source.secretValues = (...args: []) => {
        if (new Error().stack?.includes("recordCall")) throw new Error("secrets unavailable");
        return secretValues(...args);
      };
    });
    await hook(url, { body: {} });
    await restart(flow.id);
    expect((await hook(url, { body: {} })).status).toBe(429);
  });

  it("counts what a runner before issue 33 stored: one value of times per write", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, LIMITED(2));
    const url = flow.webhookUrls.webhook_1 as string;
    const now = Date.now();
    await runInDurableObject(runner(flow.id), async (_o, state) => {
      const name = `rl/webhook/webhook_1/${String(now).padStart(15, "0")}/0`;
      await state.storage.put(name, [now - 1, now]);
    });
    await restart(flow.id);
    expect((await hook(url, { body: {} })).status).toBe(429);
  });
});

describe("NodeRateLimits", () => {
  it("writes a time on its own only when no log entry takes it within UNLOGGED_MS", async () => {
    await runInDurableObject(scratch(), async (_o, state) => {
      const limits = new NodeRateLimits(
        state.storage,
        async () => [],
        () => {},
      );
      const taken = await limits.attempt("a", 5, 60_000);
      expect(limits.take(taken.stamp)).toBe(taken.stamp?.at);
      const left = await limits.attempt("b", 5, 60_000);
      await pause(UNLOGGED_MS * 5);
      // Written on its own, the time is no longer the log entry's to keep.
      expect(limits.take(left.stamp)).toBeUndefined();
      expect([...(await state.storage.list({ prefix: "rl/webhook/a/" })).keys()]).toEqual([]);
      const written = await state.storage.list<number[]>({ prefix: "rl/webhook/b/" });
      expect([...written.values()]).toEqual([[left.stamp?.at]]);
      // A restarted runner counts it, with what the log holds.
      const again = new NodeRateLimits(
        state.storage,
        async () => [Date.now()],
        () => {},
      );
      expect((await again.attempt("b", 3, 60_000)).decision.allowed).toBe(true);
      expect((await again.attempt("b", 3, 60_000)).decision.allowed).toBe(false);
    });
  });

  it("keeps the counted time of a log entry erased within the window", async () => {
    await runInDurableObject(scratch(), async (_o, state) => {
      const log = new RequestLog(state.storage);
      const stamp = await log.rates.attempt("webhook_1", 1, 60_000);
      const rateAt = log.rates.take(stamp.stamp);
      log.record(
        {
          requestId: "req_1",
          receivedAt: Date.now(),
          nodeKey: "webhook_1",
          method: "POST",
          status: 200,
          outcome: "accepted",
          executionId: null,
          latencyMs: 1,
          size: 20,
          headers: {},
          reason: null,
          body: new TextEncoder().encode('{"customer":"cus_9"}'),
          keepBody: true,
          ...(rateAt !== undefined ? { rateAt } : {}),
        },
        [],
      );
      expect(await log.erase((text) => text.includes("cus_9"))).toBe(1);
      const restarted = new RequestLog(state.storage);
      expect((await restarted.rates.attempt("webhook_1", 1, 60_000)).decision.allowed).toBe(false);
    });
  });
});
