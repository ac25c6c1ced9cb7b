/**
 * Held lastNode and responseNode callers (src/workflows/runner/held-callers.ts): each answered
 * once, by its execution or at its deadline (counted from when it was held); no timer for a caller
 * answered in the task that held it, and none left once a caller is answered (a pending timer would
 * keep the runner object up).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeldCallers } from "../../src/workflows/runner/held-callers";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("held callers", () => {
  it("answers each caller once, its execution's outcome or a timeout at its own deadline", async () => {
    const held = new HeldCallers<string>();
    const answers = new Map<string, unknown>();
    const hold = (id: string, ms: number) =>
      held.wait(id, ms).then((outcome) => answers.set(`${id}/${ms}`, outcome));
    const waits = [hold("a", 1_000), hold("b", 1_000), hold("a", 1_000), hold("c", 3_000)];
    vi.advanceTimersByTime(400);
    const late = hold("d", 1_000);
    held.settle("a", "done a");
    await Promise.resolve();
    expect(held.size).toBe(3);
    expect(answers.get("a/1000")).toBe("done a");
    vi.advanceTimersByTime(600);
    await Promise.all(waits.slice(0, 3));
    expect(answers.get("b/1000")).toEqual({ kind: "timeout", executionId: "b" });
    expect(answers.has("d/1000")).toBe(false);
    vi.advanceTimersByTime(400);
    await late;
    expect(answers.get("d/1000")).toEqual({ kind: "timeout", executionId: "d" });
    held.settle("d", "too late");
    expect(answers.get("d/1000")).toEqual({ kind: "timeout", executionId: "d" });
    vi.advanceTimersByTime(1_599);
    await Promise.resolve();
    expect(answers.has("c/3000")).toBe(false);
    vi.advanceTimersByTime(1);
    await Promise.all(waits);
    expect(answers.get("c/3000")).toEqual({ kind: "timeout", executionId: "c" });
    expect(held.size).toBe(0);
  });

  it("sets no timer for a caller answered in the task that held it, one per caller still held after", async () => {
    const held = new HeldCallers<string>();
    const quick = held.wait("quick", 30_000);
    held.settle("quick", "ok");
    expect(vi.getTimerCount()).toBe(0);
    expect(await quick).toBe("ok");
    const waits = ["a", "b", "c"].map((id) => held.wait(id, 30_000));
    expect(vi.getTimerCount()).toBe(0);
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(3);
    for (const id of ["a", "b", "c"]) held.settle(id, "ok");
    expect(await Promise.all(waits)).toEqual(["ok", "ok", "ok"]);
    expect(vi.getTimerCount()).toBe(0);
    expect(held.size).toBe(0);
  });
});
