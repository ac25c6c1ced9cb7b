/** The person's rating of an ended conversation, kept once (docs/api/conversations.md#rating). */
import { admitOpen } from "./admission";
import type { RateResult } from "./contract";
import type { ConversationStore } from "./store";

/**
 * Keeps the rating when the conversation has ended and none was given yet. A call counts against
 * the per-link limit of opens (docs/limits.md#chat), so a page cannot hammer the object.
 * @param rating score 1 to 5 and the comment (or null), already validated by the route
 * @returns the kept rating, or `not_ended`, `already_rated`, `rate_limited` with its wait
 */
export function rateConversation(
  store: ConversationStore,
  rating: { score: number; comment: string | null },
  now: number,
): RateResult {
  const wait = admitOpen(store.openTimes(now - 60_000), now);
  if (wait !== null) return { ok: false, reason: "rate_limited", retryAfterSeconds: wait };
  store.addOpen(now);
  if (store.state()?.endedAt == null) return { ok: false, reason: "not_ended" };
  if (store.kept("rating")) return { ok: false, reason: "already_rated" };
  const kept = { score: rating.score, comment: rating.comment, ratedAt: now };
  store.keep("rating", kept);
  return { ok: true, rating: kept };
}
