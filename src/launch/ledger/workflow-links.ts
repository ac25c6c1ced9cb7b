/**
 * What the link ledger does for workflows (docs/workflows.md): a create_link's repeat, and the
 * session of a link not yet opened, which a workflow writes to before the person comes
 * (docs/workflows.md#send_message).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type Link, links, type NewLink } from "../../db/schema";
import { newId } from "../../platform/ids";
import { findLinkRow } from "../link-rules";
import { effectiveStatus } from "../links";
import type { LinkStatus } from "../schemas";
import type { CreateOutcome, LedgerResult } from "./contract";
import type { EventWatch } from "./event-watch";
import { activateStatements } from "./lifecycle-events";
import type { LinkCache } from "./link-cache";
import type { PendingLinks } from "./pending-links";

/** A link's session as `linkSession` answers it. */
export type LinkSession = { status: LinkStatus; sessionId: string | null; expiresAt: number };

/**
 * The answer to a workflow's create of a link whose id is already taken: the same create again
 * (a resumed execution; same workspace and token) succeeds as it did; anything else is a bug.
 */
export function repeatedCreate(existing: Link, link: NewLink): LedgerResult<CreateOutcome> {
  const same = existing.workspaceId === link.workspaceId && existing.tokenHash === link.tokenHash;
  if (!same) throw new Error("A workflow's link id is taken by another link.");
  return { ok: true, value: { replayed: false } };
}

/**
 * The link's session (design of docs/workflows.md#send_message): a pending, unexpired link without
 * one is given one now (it stays pending and unopened); null for a link that never had one and
 * cannot open any more. Run one at a time per link with `activateLink` (`PerLink`).
 */
export async function ensureSession(
  db: DrizzleD1Database,
  link: Link,
  now: number,
): Promise<{ session: LinkSession; changed: boolean }> {
  const status = effectiveStatus(link, now);
  if (status !== "pending" || link.sessionId !== null) {
    return {
      session: { status, sessionId: link.sessionId, expiresAt: link.expiresAt },
      changed: false,
    };
  }
  const sessionId = newId("ses");
  await db
    .update(links)
    .set({ sessionId })
    .where(and(eq(links.id, link.id), eq(links.status, "pending"), isNull(links.sessionId)));
  return { session: { status, sessionId, expiresAt: link.expiresAt }, changed: true };
}

/**
 * `linkSession`'s answer for the link `found` in scope (or its refusal), giving it a session when
 * `ensureSession` says so; `changed` runs after a write, to drop the ledger's cached row.
 */
export async function giveSession(
  db: DrizzleD1Database,
  found: LedgerResult<Link>,
  now: number,
  changed: () => void,
): Promise<LedgerResult<LinkSession>> {
  if (!found.ok) return found;
  const given = await ensureSession(db, found.value, now);
  if (!given.changed) return { ok: true, value: given.session };
  changed();
  // Another writer's session (none is expected: calls run one at a time) would win: read it back.
  const stored = await findLinkRow(db, found.value.workspaceId, found.value.id);
  return { ok: true, value: { ...given.session, sessionId: stored?.sessionId ?? null } };
}

/** What opening a link needs of the ledger; `write` runs before the write (the ledger's epoch). */
type LedgerParts = {
  db: DrizzleD1Database;
  d1: D1Database;
  events: EventWatch;
  pending: PendingLinks;
  linkCache: LinkCache;
  write: () => void;
};

/**
 * Moves a pending, unexpired link to active, freeing its slot; true when this call opened it. A
 * session the link was given before (`giveSession`) is kept rather than `sessionId`, so what a
 * workflow wrote before the opening is in the conversation opened.
 */
export async function activate(
  { db, d1, events, pending, linkCache, write }: LedgerParts,
  workspaceId: string,
  linkId: string,
  sessionId: string,
  startedAt: number,
): Promise<boolean> {
  await pending.load(workspaceId);
  const found = await findLinkRow(db, workspaceId, linkId);
  if (found?.status !== "pending" || found.expiresAt <= startedAt) return false;
  write();
  const session = found.sessionId ?? sessionId;
  const active: Link = { ...found, status: "active", sessionId: session, startedAt };
  const results = await events.write(workspaceId, activateStatements(d1, active));
  const opened = (results[0] as D1Result).meta.changes === 1;
  if (opened) {
    pending.delete(linkId);
    linkCache.set(active);
  } else {
    linkCache.delete(linkId);
  }
  return opened;
}

/** Runs calls about one link one after another (bounded by the calls waiting: one chain per link). */
export class PerLink {
  private readonly chains = new Map<string, Promise<unknown>>();

  run<T>(linkId: string, work: () => Promise<T>): Promise<T> {
    const before = this.chains.get(linkId) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => undefined);
    this.chains.set(linkId, settled);
    void settled.then(() => {
      if (this.chains.get(linkId) === settled) this.chains.delete(linkId);
    });
    return next;
  }
}
