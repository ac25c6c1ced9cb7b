/**
 * Admission's pure parts (docs/webhooks.md#flow-control): a throttle's sliding window and when it
 * frees, per-key order in the queue, and a test run that no throttle counts.
 */
import { describe, expect, it } from "vitest";
import type { WebhookNode } from "../../src/workflows/nodes/types";
import { flowOf, ThrottleLog } from "../../src/workflows/runner/flow-control";
import { Slots } from "../../src/workflows/runner/slots";

const storage = {
  put: async () => {},
  list: async () => new Map(),
} as unknown as DurableObjectStorage;
const throttle = { bucket: "hook\u0000", limit: 2, periodMs: 1_000 };

describe("admission", () => {
  it("throttles over a sliding window and says when it has room", () => {
    const log = new ThrottleLog(storage);
    log.add(throttle, 0);
    log.add(throttle, 400);
    expect(log.allows(throttle, 900)).toBe(false);
    expect(log.freesAt(throttle, 900)).toBe(1_000);
    expect(log.allows(throttle, 1_001)).toBe(true);
    expect(log.freesAt(throttle, 1_001)).toBeNull();
  });

  it("forgets the buckets whose window emptied, in memory and in storage", async () => {
    const deleted: string[][] = [];
    const kept = new Map<string, unknown>([
      ["t/old\u0000", { times: [0], until: 1_000 }],
      ["t/new\u0000", { times: [1_500], until: 2_500 }],
    ]);
    const log = new ThrottleLog({
      put: async () => {},
      list: async () => kept,
      delete: async (keys: string[]) => void deleted.push(keys),
    } as unknown as DurableObjectStorage);
    await log.load(2_000);
    expect(deleted).toEqual([["t/old\u0000"]]);
    const one = (bucket: string) => ({ bucket, limit: 1, periodMs: 1_000 });
    expect(log.allows(one("new\u0000"), 2_000)).toBe(false);
    expect(log.allows(one("old\u0000"), 2_000)).toBe(true);
  });

  it("queues behind an earlier execution of the same key, never another key's", () => {
    const slots = new Slots(new ThrottleLog(storage));
    slots.setLimit({ limit: 3, queueLimit: 10, key: "{{k}}", keyLimit: 1 });
    expect(slots.admit("a1", { key: "a" }, 0)).toBe("run");
    expect(slots.admit("a2", { key: "a" }, 0)).toBe("queue");
    expect(slots.admit("a3", { key: "a" }, 0)).toBe("queue");
    expect(slots.admit("b1", { key: "b" }, 0)).toBe("run");
    expect(slots.release("b1", 0)).toEqual([]);
    expect(slots.release("a1", 0)).toEqual(["a2"]);
    expect(slots.queued).toBe(1);
  });

  it("ends per-key limits for queued executions too when the key is removed", () => {
    const slots = new Slots(new ThrottleLog(storage));
    slots.setLimit({ limit: 5, queueLimit: 10, key: "{{k}}", keyLimit: 1 });
    expect(slots.admit("a1", { key: "a" }, 0)).toBe("run");
    expect(slots.admit("a2", { key: "a" }, 0)).toBe("queue");
    slots.setLimit({ limit: 5, queueLimit: 10 });
    expect(slots.release(null, 0)).toEqual(["a2"]);
    expect(slots.admit("a3", { key: "a" }, 0)).toBe("run");
  });

  it("starts a throttled execution once its period passes, keeping its key's order", () => {
    const slots = new Slots(new ThrottleLog(storage));
    const one = { ...throttle, limit: 1 };
    expect(slots.admit("t1", { throttle: one }, 0)).toBe("run");
    expect(slots.admit("t2", { throttle: one }, 10)).toBe("queue");
    expect(slots.admit("t3", { throttle: one }, 20)).toBe("queue");
    expect(slots.nextWake(20)).toBe(1_000);
    expect(slots.release(null, 999)).toEqual([]);
    expect(slots.release(null, 1_000)).toEqual(["t2"]);
    expect(slots.nextWake(1_000)).toBe(2_000);
  });

  it("starts an execution only when both its concurrency and its throttle allow", () => {
    const slots = new Slots(new ThrottleLog(storage));
    slots.setLimit({ limit: 1, queueLimit: 10 });
    const one = { ...throttle, limit: 1 };
    expect(slots.admit("c1", { throttle: one }, 0)).toBe("run");
    expect(slots.admit("c2", { throttle: one }, 0)).toBe("queue");
    // The slot frees within the period: the throttle still holds c2.
    expect(slots.release("c1", 500)).toEqual([]);
    // The period passes: c2 starts; with its slot taken, c3 waits for the slot.
    expect(slots.release(null, 1_000)).toEqual(["c2"]);
    expect(slots.admit("c3", {}, 3_000)).toBe("queue");
    expect(slots.release("c2", 3_000)).toEqual(["c3"]);
  });

  it("does not throttle a builder's test run", () => {
    const node = {
      key: "hook",
      type: "webhook",
      throttle: { limit: 1, periodSeconds: 60, key: "{{hook.body.a}}" },
    } as unknown as WebhookNode;
    const output = { body: { a: "x" } };
    expect(flowOf(undefined, node, output).throttle).toEqual({
      bucket: "hook\u0000x",
      limit: 1,
      periodMs: 60_000,
    });
    expect(flowOf(undefined, node, output, "test")).toEqual({});
  });
});
