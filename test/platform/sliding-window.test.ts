import { describe, expect, it } from "vitest";
import { SlidingWindowLog } from "../../src/platform/sliding-window";

const MINUTE = 60_000;

describe("SlidingWindowLog", () => {
  it("accepts exactly `limit` events in a window and says when the next fits", () => {
    const log = new SlidingWindowLog();
    const start = 1_000_000;
    for (let i = 0; i < 120; i++) {
      expect(log.attempt(start + i * 100, 120, MINUTE).allowed).toBe(true);
    }
    const refused = log.attempt(start + 12_000, 120, MINUTE);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // The first event (at `start`) leaves the window at start + 60 s: 48 s after the refusal.
    expect(refused.retryAfterSeconds).toBe(48);
  });

  it("is exact in any window, not per fixed minute", () => {
    const log = new SlidingWindowLog();
    const start = 5_000_000;
    for (let i = 0; i < 60; i++) log.attempt(start + 59_000 + i, 120, MINUTE);
    for (let i = 0; i < 60; i++)
      expect(log.attempt(start + 61_000 + i, 120, MINUTE).allowed).toBe(true);
    // 120 events within 2.1 s straddling a minute boundary: a fixed window would allow more.
    expect(log.attempt(start + 62_000, 120, MINUTE).allowed).toBe(false);
    // Once the first 60 leave (59 s + 60 s), 60 more fit, and no more.
    for (let i = 0; i < 60; i++) {
      expect(log.attempt(start + 119_100 + i, 120, MINUTE).allowed).toBe(true);
    }
    expect(log.attempt(start + 119_200, 120, MINUTE).allowed).toBe(false);
  });

  it("does not count refused attempts", () => {
    const log = new SlidingWindowLog();
    for (let i = 0; i < 3; i++) log.attempt(i, 3, MINUTE);
    for (let i = 0; i < 50; i++) expect(log.attempt(1000 + i, 3, MINUTE).allowed).toBe(false);
    expect(log.count(1000, MINUTE)).toBe(3);
    expect(log.attempt(MINUTE + 1, 3, MINUTE).allowed).toBe(true);
  });

  it("reports remaining calls and a reset in whole seconds >= 1", () => {
    const log = new SlidingWindowLog();
    const first = log.attempt(0, 10, MINUTE);
    expect(first).toMatchObject({
      allowed: true,
      remaining: 9,
      resetSeconds: 60,
      retryAfterSeconds: 0,
    });
    expect(log.attempt(59_999, 10, MINUTE)).toMatchObject({ remaining: 8, resetSeconds: 1 });
  });

  it("starts from stored events, as after a restart", () => {
    const log = new SlidingWindowLog([3, 1, 2]);
    expect(log.count(10, MINUTE)).toBe(3);
    expect(log.attempt(10, 3, MINUTE).allowed).toBe(false);
  });
});
