import type { AppBindings } from "../platform/env";

/** Launch API limits (spec section 8), overridable by Worker vars for benchmarks. */
export type LaunchLimits = {
  /** Accepted calls per widget key in any window of `rateLimitWindowMs`. */
  rateLimitPerWindow: number;
  rateLimitWindowMs: number;
  /** Pending unexpired links per workspace. */
  maxPendingLinks: number;
};

function positiveInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** Reads the limits from the vars, falling back to the spec's 120/min and 10,000 pending links. */
export function launchLimits(env: AppBindings): LaunchLimits {
  return {
    rateLimitPerWindow: positiveInt(env.RATE_LIMIT_PER_MINUTE, 120),
    rateLimitWindowMs: 60_000,
    maxPendingLinks: positiveInt(env.MAX_PENDING_LINKS, 10_000),
  };
}
