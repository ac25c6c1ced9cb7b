/** The LinkLedger's write-through cache of link rows (docs/architecture.md#link-ledger). */
import type { Link, NewLink } from "../../db/schema";
import { toLaunch } from "../links";
import type { Admission, Guarded, LedgerResult } from "./contract";
import { type PackedView, packView } from "./packed-view";

/** A bounded write-through cache of link rows by id (oldest dropped first). */
export class LinkCache {
  private readonly rows = new Map<string, Link>();
  /**
   * Each row's look-up view as JSON text, made once per row: a write stores a new row, so a view
   * never outlives what it shows. A pending link's view changes at its expiry: it holds for times
   * (epoch ms) in [`from`, `until`), on the side of the expiry it was made on.
   */
  private readonly views = new WeakMap<Link, { text: string; from: number; until: number }>();

  /** @param capacity rows kept; the oldest write is dropped past it */
  constructor(private readonly capacity = 20_000) {}

  get(linkId: string): Link | undefined {
    return this.rows.get(linkId);
  }

  /**
   * The look-up view of `link` at `now` (epoch ms) as the answer's JSON text
   * (docs/api/launch.md#operations), kept with the row object while its status stays the same.
   */
  viewText(link: Link, now: number): string {
    const kept = this.views.get(link);
    if (kept && now >= kept.from && now < kept.until) return kept.text;
    const text = JSON.stringify(toLaunch(link, now));
    const never = Number.POSITIVE_INFINITY;
    const expires = link.status === "pending" ? link.expiresAt : never;
    const [from, until] = now < expires ? [-never, expires] : [expires, never];
    this.views.set(link, { text, from, until });
    return text;
  }

  /** Stores the row as the newest. */
  set(link: Link): void {
    this.rows.delete(link.id);
    this.rows.set(link.id, link);
    if (this.rows.size > this.capacity) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
  }

  delete(linkId: string): void {
    this.rows.delete(linkId);
  }

  clear(): void {
    this.rows.clear();
  }
}

/** The row D1 holds after inserting `link` (absent columns are null). */
export function toRow(link: NewLink): Link {
  return {
    participantName: null,
    participantExternalId: null,
    globalTask: null,
    metadata: {},
    sessionId: null,
    startedAt: null,
    endedAt: null,
    revokedAt: null,
    analysis: null,
    ratingScore: null,
    ratingComment: null,
    ratedAt: null,
    ...link,
  };
}

/**
 * The ledger's answer to an admitted look-up (the contract's `viewLink`): a link found in scope as
 * its view at `now` packed with the window's figures (packed-view.ts), a refusal as `Guarded`;
 * when `found` is still being read, once it is.
 */
export function viewAnswer(
  cache: LinkCache,
  admission: Extract<Admission, { admitted: true }>,
  found: LedgerResult<Link> | Promise<LedgerResult<Link>>,
  now: number,
): PackedView | Guarded<string> | Promise<PackedView | Guarded<string>> {
  if (found instanceof Promise)
    return found.then((read) => viewAnswer(cache, admission, read, now));
  if (!found.ok) return { admission, result: found };
  return packView(admission.rateLimit, cache.viewText(found.value, now));
}
