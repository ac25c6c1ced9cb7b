/**
 * The ledger's link writes, each one D1 write with its lifecycle event (docs/events.md#event-types),
 * and the alarm's `link.expired` records and relays.
 */
import { and, eq, getTableColumns, isNull, lte, ne, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { compiledWrite } from "../../db/compiled";
import { database } from "../../db/database";
import type { EventType } from "../../db/event-tables";
import { type ConversationAnalysis, type Link, links } from "../../db/schema";
import { eventStatements, RELAY_GRACE_MS, relayStaleDeliveries } from "../../events";
import type { EventEndReason, EventRating } from "../../events/contract";
import type { Write } from "../../platform/d1-write-batcher";
import type { AppBindings } from "../../platform/env";
import { isoTime } from "../../platform/ids";
import { pendingLinksWhere } from "../link-rules";
import { eventConversation, toLaunch } from "../links";

type Statements = [Write, ...Write[]];

/** The event's two statements for the link as it is after the change. */
function linkEvent(
  d1: D1Database,
  type: Exclude<EventType, "conversation.analyzed">,
  link: Link,
  at: number,
  reason?: EventEndReason,
): [Write, Write] {
  const { conversation, ...view } = toLaunch(link, at);
  // The event is recorded only if the change it reports is what D1 now holds; a simultaneous
  // repeat's insert is ignored, one event per link and type (events_link_type, unique).
  const row = (condition: string, ...params: unknown[]) => ({
    sql: `EXISTS (SELECT 1 FROM links WHERE id = ? AND ${condition})`,
    params: [link.id, ...params],
  });
  const holds = {
    "link.created": row("1"),
    "link.expired": row("status = 'expired'"),
    "link.revoked": row("status = 'revoked'"),
    // The session may have been given before the link opened: the start time tells this opening.
    "conversation.started": row(
      "session_id = ? AND started_at = ?",
      link.sessionId,
      link.startedAt,
    ),
    "conversation.ended": row("ended_at IS NOT NULL"),
    "conversation.rated": row("rated_at IS NOT NULL"),
  }[type];
  return eventStatements(d1, {
    workspaceId: link.workspaceId,
    linkId: link.id,
    type,
    createdAt: at,
    data: {
      link: view,
      conversation: eventConversation(conversation),
      ...(reason ? { reason } : {}),
      ...(type === "conversation.rated" ? { rating: eventRating(link) } : {}),
    },
    when: holds,
  });
}

/**
 * Every column of a new link row, each a placeholder of its own name; not `analysis`, which stays
 * SQL NULL until the conversation is analysed (bound, a null would be stored as JSON `null`).
 */
const LINK_PLACEHOLDERS = Object.fromEntries(
  Object.keys(getTableColumns(links))
    .filter((name) => name !== "analysis")
    .map((name) => [name, sql.placeholder(name)]),
) as Record<Exclude<keyof Link, "analysis">, ReturnType<typeof sql.placeholder>>;

const insertLink = compiledWrite<Link>((db) => db.insert(links).values(LINK_PLACEHOLDERS));

const revokeLink = compiledWrite<Pick<Link, "id" | "workspaceId" | "revokedAt" | "endedAt">>((db) =>
  db
    .update(links)
    // Integer columns (epoch ms): bound as they are, as their encoder would.
    .set({
      status: "revoked",
      revokedAt: sql`${sql.placeholder("revokedAt")}`,
      endedAt: sql`${sql.placeholder("endedAt")}`,
    })
    .where(
      and(
        eq(links.id, sql.placeholder("id")),
        eq(links.workspaceId, sql.placeholder("workspaceId")),
        ne(links.status, "revoked"),
      ),
    )
    // The session as D1 holds it: one given after the ledger read the link is closed too.
    .returning({ sessionId: links.sessionId }),
);

/** A new link with its `link.created`. */
export function createStatements(d1: D1Database, link: Link): Statements {
  return [insertLink(d1, link), ...linkEvent(d1, "link.created", link, link.createdAt)];
}

/**
 * Revocation from any state, with `link.revoked` and, for an open conversation, its end; the first
 * result's row (`session_id`) is the link's session when this write revoked it, none otherwise.
 */
export function revokeStatements(d1: D1Database, revoked: Link, wasOpen: boolean): Statements {
  const at = revoked.revokedAt ?? Date.now();
  const statements: Statements = [
    revokeLink(d1, revoked),
    ...linkEvent(d1, "link.revoked", revoked, at),
  ];
  if (wasOpen) statements.push(...linkEvent(d1, "conversation.ended", revoked, at, "server"));
  return statements;
}

/** A pending link opened, with `conversation.started`; the first result's `changes` tells. */
export function activateStatements(d1: D1Database, active: Link): Statements {
  const db = database({ DB: d1 });
  return [
    db
      .update(links)
      .set({ status: "active", sessionId: active.sessionId, startedAt: active.startedAt })
      .where(
        and(
          eq(links.id, active.id),
          eq(links.workspaceId, active.workspaceId),
          eq(links.status, "pending"),
        ),
      ),
    ...linkEvent(d1, "conversation.started", active, active.startedAt ?? Date.now()),
  ];
}

/** The conversation's end recorded on the link, with `conversation.ended` and its reason. */
export function endStatements(d1: D1Database, ended: Link, reason: EventEndReason): Statements {
  const db = database({ DB: d1 });
  const at = ended.endedAt ?? Date.now();
  return [
    db
      .update(links)
      .set({ status: ended.status, endedAt: at })
      .where(
        and(
          eq(links.id, ended.id),
          eq(links.workspaceId, ended.workspaceId),
          isNull(links.endedAt),
        ),
      ),
    ...linkEvent(d1, "conversation.ended", ended, at, reason),
  ];
}

/**
 * The analysis stored on the link, with `conversation.analyzed` (docs/events.md#conversationanalyzed):
 * only the first analysis of a link is kept, and its event recorded only with it.
 */
export function analysisStatements(
  d1: D1Database,
  link: Link,
  analysis: ConversationAnalysis,
  at: number,
): Statements {
  const json = JSON.stringify(analysis);
  const { conversation, ...view } = toLaunch(link, at);
  return [
    d1
      .prepare(
        "UPDATE links SET analysis = ?1 WHERE id = ?2 AND workspace_id = ?3 AND analysis IS NULL",
      )
      .bind(json, link.id, link.workspaceId),
    ...eventStatements(d1, {
      workspaceId: link.workspaceId,
      linkId: link.id,
      type: "conversation.analyzed",
      createdAt: at,
      data: { link: view, conversation: eventConversation(conversation), analysis },
      when: {
        sql: "EXISTS (SELECT 1 FROM links WHERE id = ? AND analysis = ?)",
        params: [link.id, json],
      },
    }),
  ];
}

/** The rating as `conversation.rated` carries it (docs/events.md#conversationrated). */
function eventRating(link: Link): EventRating {
  return {
    score: link.ratingScore ?? 0,
    comment: link.ratingComment,
    ratedAt: isoTime(link.ratedAt ?? 0),
  };
}

/**
 * The person's rating recorded on the link, once, with `conversation.rated`: a link rated before
 * keeps its first rating (the update changes no row) and the event is not written twice.
 */
export function rateStatements(d1: D1Database, rated: Link): Statements {
  const db = database({ DB: d1 });
  return [
    db
      .update(links)
      .set({
        ratingScore: rated.ratingScore,
        ratingComment: rated.ratingComment,
        ratedAt: rated.ratedAt,
      })
      .where(
        and(
          eq(links.id, rated.id),
          eq(links.workspaceId, rated.workspaceId),
          isNull(links.ratedAt),
        ),
      ),
    ...linkEvent(d1, "conversation.rated", rated, rated.ratedAt ?? Date.now()),
  ];
}

/** Expired links recorded per alarm, at most (the rest wait for the next alarm, right away). */
const EXPIRED_PER_ALARM = 1_000;
const EXPIRED_PER_BATCH = 100;

/** A position in the order of expiry: every link before it has been looked at. */
export type ExpiryPosition = { expiresAt: number; id: string };
/** After every id (ids are ASCII letters, digits and `_`). */
const LAST_ID = "~";

/**
 * Stores `expired` on a link still pending: it leaves the pending range of the status index, so the
 * pending cap's load and this alarm read the unexpired pending links only (and the few not recorded
 * yet), however many links expired unopened before.
 */
const markExpired = (d1: D1Database, link: Link): Write =>
  d1
    .prepare(
      "UPDATE links SET status = 'expired' WHERE id = ?1 AND workspace_id = ?2 AND status = 'pending'",
    )
    .bind(link.id, link.workspaceId);

const isAfter = (link: Link, position: ExpiryPosition) =>
  link.expiresAt > position.expiresAt ||
  (link.expiresAt === position.expiresAt && link.id > position.id);

/**
 * Stores `expired` on the pending links expired by `to`, recording `link.expired` for those that
 * expired after `after` (one that expired before the ledger watched its workspace gets no event,
 * as before: `after` starts at the first watch).
 * @returns the position recorded up to and the writes' results
 */
export async function recordExpiredLinks(
  env: Pick<AppBindings, "DB">,
  write: (statements: Statements) => Promise<D1Result[]>,
  workspaceId: string,
  after: ExpiryPosition,
  to: number,
): Promise<{ through: ExpiryPosition; done: boolean; results: D1Result[] }> {
  const db = database(env);
  const results: D1Result[] = [];
  for (let seen = 0; seen < EXPIRED_PER_ALARM; seen += EXPIRED_PER_BATCH) {
    // No order: each batch's links leave the pending range, so the next batch finds the rest.
    const rows = await db
      .select()
      .from(links)
      .where(pendingLinksWhere(workspaceId, lte(links.expiresAt, to)))
      .limit(EXPIRED_PER_BATCH);
    const [first, ...rest] = rows.flatMap((row) => [
      markExpired(env.DB, row),
      ...(isAfter(row, after) ? linkEvent(env.DB, "link.expired", row, row.expiresAt) : []),
    ]);
    if (first) results.push(...(await write([first, ...rest])));
    if (rows.length < EXPIRED_PER_BATCH) {
      return { through: { expiresAt: to, id: LAST_ID }, done: true, results };
    }
  }
  return { through: after, done: false, results };
}

/** The ledger's alarm work, once per firing (docs/events.md#delivery). */
export async function watchEvents(
  env: AppBindings,
  db: DrizzleD1Database,
  write: (statements: Statements) => Promise<D1Result[]>,
  workspaceId: string,
  expiredThrough: ExpiryPosition,
  now: number,
) {
  const expired = await recordExpiredLinks(env, write, workspaceId, expiredThrough, now);
  const relayAgainAt = await relayStaleDeliveries(env, db, workspaceId, now);
  return { ...expired, relayAgainAt };
}

/** When the ledger should look for stale deliveries after writing events now. */
export const relayCheckAt = (now: number) => now + RELAY_GRACE_MS;
