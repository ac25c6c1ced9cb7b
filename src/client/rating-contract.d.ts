// What the chat page (./rating-loader.ts) and the rating bundle it loads after the end
// (./rating.ts) share (docs/chat.md#rating): two IIFE bundles, so one function on a global.

/** What the session answer says of the rating; absent from an older server's answer. */
export type RatingState = { enabled: boolean; score: number | null };

/**
 * Puts the rating after `anchor`: the form, or the thanks when `state.score` is set already.
 * `token` is the launch token the rating is sent with.
 */
export type MountRating = (anchor: HTMLElement, token: string, state: RatingState) => void;

declare global {
  interface Window {
    /** Set by the rating bundle when it runs; the chat page calls it once the bundle loaded. */
    agentEdgeMountRating?: MountRating;
  }
}
