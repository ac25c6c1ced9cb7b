/**
 * Daily retention of transcripts (`conversationDays`; links keep status and times) and events
 * (`eventDays`) by the ledger's alarm, a page per firing (docs/security.md#retention).
 */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { conversation } from "../../conversations/conversation/client";
import { DAY_MS, retentionOf } from "../../db/retention";
import { workspaces } from "../../db/schema";
import type { AppBindings } from "../../platform/env";

/** Where the conversations' sweep got to: the last link erased, by end time then id. */
export type SweptThrough = { endedAt: number; id: string };

/** A link's conversation ends at the latest when the link expires: 90 days after its creation. */
const LONGEST_LINK_MS = 90 * DAY_MS;
const PAGE = 100;

/**
 * One page of the sweep at `now` (epoch ms).
 * @param through where the last sweep of conversations got to (null: from the start)
 * @returns where it got to, and whether anything is left for another page
 */
export async function sweepRetention(
  env: Pick<AppBindings, "DB" | "CONVERSATION">,
  db: DrizzleD1Database,
  workspaceId: string,
  through: SweptThrough | null,
  now: number,
): Promise<{ through: SweptThrough | null; more: boolean }> {
  const stored = await db
    .select({ retention: workspaces.retention })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!stored) return { through, more: false };
  const retention = retentionOf(stored.retention);
  const cutoff = now - retention.conversationDays * DAY_MS;
  const from = through ?? { endedAt: 0, id: "" };
  const ended = await env.DB.prepare(
    `SELECT id, session_id, ended_at FROM links WHERE workspace_id = ?1
      AND status IN ('ended', 'revoked') AND created_at <= ?2 AND created_at > ?3
      AND session_id IS NOT NULL AND ended_at IS NOT NULL AND ended_at <= ?2
      AND (ended_at > ?4 OR (ended_at = ?4 AND id > ?5))
      ORDER BY ended_at, id LIMIT ${PAGE}`,
  )
    .bind(workspaceId, cutoff, from.endedAt - LONGEST_LINK_MS, from.endedAt, from.id)
    .all<{ id: string; session_id: string; ended_at: number }>();
  for (const row of ended.results) await conversation(env, row.session_id).erase();
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
    through: last ? { endedAt: last.ended_at, id: last.id } : through,
    more: ended.results.length === PAGE || (removed?.meta.changes ?? 0) === PAGE * 5,
  };
}
