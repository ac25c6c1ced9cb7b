/**
 * A look-up the ledger admitted and found in scope, packed into one string for its way back to the
 * Worker: `<limit> <remaining> <reset seconds> <view JSON>`. RPC copies one string much more
 * cheaply than `Guarded`'s nested objects, and the look-up is the launch API's most frequent call
 * (docs/performance.md#the-look-ups-answer-in-one-string). The view is the answer's JSON text as
 * it is sent (docs/api/launch.md#operations); the numbers are those of its RateLimit headers.
 */
import type { RateLimitDecision } from "../../platform/sliding-window";

/** The rate-limit window's figures a look-up's RateLimit headers show. */
export type ViewWindow = Pick<RateLimitDecision, "limit" | "remaining" | "resetSeconds">;

/** A packed look-up (see above); `unpackView` reads it. */
export type PackedView = `${number} ${number} ${number} ${string}`;

/** Packs the window's figures (whole numbers) and the view's JSON text. */
export function packView(window: ViewWindow, view: string): PackedView {
  return `${window.limit} ${window.remaining} ${window.resetSeconds} ${view}`;
}

/** Reads what `packView` packed: the three whole numbers before the first three spaces, then the view. */
export function unpackView(packed: PackedView): { window: ViewWindow; view: string } {
  const first = packed.indexOf(" ");
  const second = packed.indexOf(" ", first + 1);
  const third = packed.indexOf(" ", second + 1);
  return {
    window: {
      limit: Number(packed.slice(0, first)),
      remaining: Number(packed.slice(first + 1, second)),
      resetSeconds: Number(packed.slice(second + 1, third)),
    },
    view: packed.slice(third + 1),
  };
}
