/** The LinkLedger's write-through cache of link rows (docs/architecture.md#link-ledger). */
import type { Link, NewLink } from "../../db/schema";
import { toLaunch } from "../links";
import type { LedgerResult } from "./contract";

/** A bounded write-through cache of link rows by id (oldest dropped first). */
export class LinkCache {
  private readonly rows = new Map<string, Link>();

  /** @param capacity rows kept; the oldest write is dropped past it */
  constructor(private readonly capacity: number) {}

  get(linkId: string): Link | undefined {
    return this.rows.get(linkId);
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

/** A found link's look-up view at `now` as the answer's JSON text (docs/api/launch.md#operations). */
export function launchView(found: LedgerResult<Link>, now: number): LedgerResult<string> {
  return found.ok ? { ok: true, value: JSON.stringify(toLaunch(found.value, now)) } : found;
}
