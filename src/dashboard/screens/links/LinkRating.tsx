/**
 * The person's rating on a link's page (docs/dashboard.md#screens, docs/api/conversations.md#rating):
 * the score as five stars with its words ("4 out of 5"), the comment and when it was given.
 */
import type { Schemas } from "../../api";

type Conversation = NonNullable<Schemas["LinkDetail"]["conversation"]>;
type Rating = NonNullable<Conversation["rating"]>;

/** How long after the end the page keeps looking for the person's rating, in ms. */
export const RATING_WATCH_MS = 5 * 60_000;

/**
 * Whether the page should read the link again for a rating: ended less than RATING_WATCH_MS ago
 * and not rated yet (the person rates right after the end, if at all).
 */
export function awaitingRating(
  conversation: Conversation | null | undefined,
  now: number,
): boolean {
  if (conversation?.status !== "ended" || conversation.rating || !conversation.endedAt)
    return false;
  return now - Date.parse(conversation.endedAt) < RATING_WATCH_MS;
}

/** Filled and empty stars for `score` (1 to 5), for the eye only. */
export function stars(score: number): string {
  const filled = Math.max(0, Math.min(5, Math.round(score)));
  return "★".repeat(filled) + "☆".repeat(5 - filled);
}

/** The rating section; "Not rated" until the person rated the ended conversation. */
export function LinkRating({ rating }: { rating: Rating | null }) {
  return (
    <section aria-labelledby="rating-title">
      <h2 id="rating-title">Rating</h2>
      {rating ? (
        <dl className="link-fact-list">
          <div className="fact">
            <dt>Score</dt>
            <dd>
              <span className="rating-stars" aria-hidden="true">
                {stars(rating.score)}
              </span>{" "}
              {rating.score} out of 5
            </dd>
          </div>
          <div className="fact">
            <dt>Comment</dt>
            <dd className="rating-comment">
              {rating.comment ?? <span className="muted">None</span>}
            </dd>
          </div>
          <div className="fact">
            <dt>Rated</dt>
            <dd>
              {/* As `When` shows times; not imported, so this stays free of the API client. */}
              <time dateTime={rating.ratedAt}>{new Date(rating.ratedAt).toLocaleString()}</time>
            </dd>
          </div>
        </dl>
      ) : (
        <p className="muted">Not rated.</p>
      )}
    </section>
  );
}
