/**
 * The runner's hourly counters for the metrics (docs/operations.md#metrics), through its RPC
 * contract (`metricBuckets`): the alarm writes a group of counts a minute after its first count,
 * so an eviction after that loses none; an hour's counts are kept 400 days, then deleted.
 */
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RUNNER_METRICS } from "../../src/workflows/runner/metrics-store";
import { seedWorkspace } from "../helpers/api";
import { shardStub } from "../helpers/shards";
import { createWorkflow, hook } from "../helpers/workflows";

const HOUR = RUNNER_METRICS.hourMs;
const DAY = 24 * HOUR;

const flowDefinition = {
  nodes: [{ type: "webhook" }, { key: "ok", type: "set", fields: { n: "{{webhook_1.body.n}}" } }],
  connections: [{ from: "webhook_1", to: "ok" }],
};

/** Accepted calls the runner counted in `[from, to)`. */
async function accepted(workflowId: string, from: number, to: number): Promise<number> {
  const buckets = await shardStub(workflowId, 0).metricBuckets(from, to, HOUR);
  return buckets.reduce((sum, bucket) => sum + (bucket.counts.calls.accepted?.calls ?? 0), 0);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the runner's hourly counters", () => {
  it("are written by the alarm a minute after the first count: an eviction then loses none", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowDefinition);
    for (let n = 0; n < 3; n++) await hook(flow.webhookUrls.webhook_1 as string, { body: { n } });
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now + RUNNER_METRICS.writeEveryMs + 1_000);
    expect(await runDurableObjectAlarm(shardStub(flow.id, 0))).toBe(true);
    vi.useRealTimers();
    await evictDurableObject(shardStub(flow.id, 0));
    expect(await accepted(flow.id, now - HOUR, now + HOUR)).toBe(3);
  });

  it("keep an hour 400 days, then delete it", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowDefinition);
    const now = Date.now();
    const old = now - 401 * DAY;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(old);
    await hook(flow.webhookUrls.webhook_1 as string, { body: { n: 1 } });
    // A read writes what is pending: the old hour is stored.
    expect(await accepted(flow.id, old - HOUR, old + HOUR)).toBe(1);
    vi.setSystemTime(now);
    // The first write of a newer hour deletes the hours past 400 days.
    await hook(flow.webhookUrls.webhook_1 as string, { body: { n: 2 } });
    expect(await accepted(flow.id, now - HOUR, now + HOUR)).toBe(1);
    expect(await accepted(flow.id, old - HOUR, old + HOUR)).toBe(0);
  });
});
