/**
 * Daily retention of transcripts (`conversationDays`; links keep status and times, not the
 * analysis or the rating's comment) and events (`eventDays`) by the ledger's alarm, a page per
 * firing (docs/security.md#retention).
 */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { conversation } from "../../conversations/conversation/client";
import { DAY_MS, retentionOf } from "../../db/retention";
import { workspaces } from "../../db/schema";
import type { AppBindings } from "../../platform/env";

/**
 * Where the conversations' sweep got to: the last link erased, by the time its conversation
 * closed (`endedAt`: its end, or for one never opened its revocation or expiry) then id.
 */
export type SweptThrough = { endedAt: number; id: string };

/** A link's conversation ends at the latest when the link expires: 90 days after its creation. */
const LONGEST_LINK_MS = 90 * DAY_MS;
const PAGE = 100;

/**
 * One page of the sweep at `now` (epoch ms).
 * @param through where the last sweep of conversations got to (null: from the start)
 * @returns where it got to, whether anything is left for another page, and the links whose
 *   conversations it erased (their rows changed: cached copies are stale)
 */
export async function sweepRetention(
  env: Pick<AppBindings, "DB" | "CONVERSATION">,
  db: DrizzleD1Database,
  workspaceId: string,
  through: SweptThrough | null,
  now: number,
): Promise<{ through: SweptThrough | null; more: boolean; swept: string[] }> {
  const stored = await db
    .select({ retention: workspaces.retention })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!stored) return { through, more: false, swept: [] };
  const retention = retentionOf(stored.retention);
  const cutoff = now - retention.conversationDays * DAY_MS;
  const from = through ?? { endedAt: 0, id: "" };
  // A link given a session but never opened (a workflow wrote to it) has no end: its
  // conversation closed when it was revoked, or at the latest when it expired. The states an
  // active link is not in, listed so the status index serves the creation window (one range each).
  const ended = await env.DB.prepare(
    `SELECT id, session_id, closed_at FROM (
       SELECT id, session_id, CASE WHEN ended_at IS NOT NULL THEN ended_at
         ELSE min(coalesce(revoked_at, expires_at), expires_at) END AS closed_at
       FROM links WHERE workspace_id = ?1 AND session_id IS NOT NULL
         AND status IN ('pending', 'ended', 'revoked', 'expired')
         AND created_at <= ?2 AND created_at > ?3
         AND ((status IN ('ended', 'revoked') AND ended_at IS NOT NULL)
           OR (started_at IS NULL AND status <> 'active'))
     ) WHERE closed_at <= ?2 AND (closed_at > ?4 OR (closed_at = ?4 AND id > ?5))
     ORDER BY closed_at, id LIMIT ${PAGE}`,
  )
    .bind(workspaceId, cutoff, from.endedAt - LONGEST_LINK_MS, from.endedAt, from.id)
    .all<{ id: string; session_id: string; closed_at: number }>();
  for (const row of ended.results) await conversation(env, row.session_id).erase();
  const swept = ended.results.map((row) => row.id);
  // The analysis summarizes the transcript and the comment is the person's words: both go with it.
  if (swept.length > 0)
    await env.DB.prepare(
      `UPDATE links SET analysis = NULL, rating_comment = NULL
        WHERE workspace_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
    )
      .bind(workspaceId, JSON.stringify(swept))
      .run();
  const last = ended.results.at(-1);
  const old = now - retention.eventDays * DAY_MS;
  const events = `SELECT id FROM events WHERE workspace_id = ?1 AND created_at < ?2 LIMIT ${PAGE * 5}`;
  const deliveries = `SELECT id FROM event_deliveries WHERE workspace_id = ?1 AND event_id IN (${events})`;
  const [, , removed] = await env.DB.batch([
    env.DB.prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (${deliveries})`).bind(
      workspaceId,
      old,
    ),
    env.DB.prepare(
      `DELETE FROM event_deliveries WHERE workspace_id = ?1 AND event_id IN (${events})`,
    ).bind(workspaceId, old),
    env.DB.prepare(`DELETE FROM events WHERE id IN (${events})`).bind(workspaceId, old),
  ]);
  return {
    through: last ? { endedAt: last.closed_at, id: last.id } : through,
    swept,
    more: ended.results.length === PAGE || (removed?.meta.changes ?? 0) === PAGE * 5,
  };
}
