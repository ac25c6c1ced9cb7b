/** Exact sliding-window log: at most `limit` events in any `windowMs`; pure (see RateLimitStore). */

/** The outcome of one attempt, in whole seconds as the RateLimit and Retry-After headers want them. */
export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Accepted events still possible in the current window, after this one. */
  remaining: number;
  /** Seconds until the oldest counted event leaves the window (0 when none is counted). */
  resetSeconds: number;
  /** Seconds to wait before an attempt can be accepted; 0 when allowed, otherwise >= 1. */
  retryAfterSeconds: number;
};

/** Timestamps (ms, ascending) of accepted events of one key; read from `head` on. */
export class SlidingWindowLog {
  private times: number[];
  private head = 0;

  constructor(times: number[] = []) {
    this.times = [...times].sort((a, b) => a - b);
  }

  /** Number of accepted events inside the window ending at `now`. */
  count(now: number, windowMs: number): number {
    this.evict(now, windowMs);
    return this.times.length - this.head;
  }

  /**
   * Accepts an event at `now` when fewer than `limit` are in the window, recording it.
   * @returns the decision, and `evictedBefore`: the cut-off (ms) below which stored events can go.
   */
  attempt(
    now: number,
    limit: number,
    windowMs: number,
  ): RateLimitDecision & { evictedBefore: number } {
    const inWindow = this.count(now, windowMs);
    const allowed = inWindow < limit;
    if (allowed) this.times.push(now);
    const counted = this.times.length - this.head;
    const oldest = this.times[this.head];
    const resetSeconds =
      oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    let retryAfterSeconds = 0;
    if (!allowed) {
      // The attempt fits once enough events leave that fewer than `limit` remain.
      const blocking = this.times[this.times.length - limit] ?? oldest ?? now;
      retryAfterSeconds = Math.max(1, Math.ceil((blocking + windowMs - now) / 1000));
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted),
      resetSeconds,
      retryAfterSeconds,
      evictedBefore: now - windowMs,
    };
  }

  private evict(now: number, windowMs: number): void {
    const cutoff = now - windowMs;
    while (this.head < this.times.length && (this.times[this.head] as number) <= cutoff)
      this.head++;
    // Compact now and then so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
