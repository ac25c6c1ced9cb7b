/** Erasing one link (docs/security.md#erasure): its row, events, deliveries and attempts in one batch. */

import { conversation } from "../../conversations/conversation/client";
import type { AppBindings } from "../../platform/env";
import type { ErasedLink } from "./contract";

/** What erasing a link removed from D1. */
type ErasedRows = { sessionId: string | null; events: number; deliveries: number };

/**
 * Erases the link's rows, then its conversation; records no event.
 * @returns what was erased, or null when the workspace has no such link (anymore)
 */
export async function eraseLink(
  env: Pick<AppBindings, "DB" | "CONVERSATION">,
  workspaceId: string,
  linkId: string,
): Promise<ErasedLink | null> {
  const erased = await eraseLinkRows(env.DB, workspaceId, linkId);
  if (!erased) return null;
  const { sessionId, events, deliveries } = erased;
  const messages = sessionId ? await conversation(env, sessionId).erase() : 0;
  return { conversation: sessionId !== null, messages, events, deliveries };
}

/**
 * Deletes the link's row and everything D1 holds of its events, in one transaction.
 * @returns what was deleted, or null when the workspace has no such link (anymore)
 */
async function eraseLinkRows(
  db: D1Database,
  workspaceId: string,
  linkId: string,
): Promise<ErasedRows | null> {
  const ofLink = "SELECT id FROM events WHERE link_id = ?1";
  const deliveries = `SELECT id FROM event_deliveries WHERE workspace_id = ?2 AND event_id IN (${ofLink})`;
  const [, deleted, events, link] = await db.batch([
    db
      .prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (${deliveries})`)
      .bind(linkId, workspaceId),
    db
      .prepare(`DELETE FROM event_deliveries WHERE workspace_id = ?2 AND event_id IN (${ofLink})`)
      .bind(linkId, workspaceId),
    db
      .prepare("DELETE FROM events WHERE link_id = ?1 AND workspace_id = ?2")
      .bind(linkId, workspaceId),
    db
      .prepare("DELETE FROM links WHERE id = ?1 AND workspace_id = ?2 RETURNING session_id")
      .bind(linkId, workspaceId),
  ]);
  const row = link?.results[0] as { session_id: string | null } | undefined;
  if (!row) return null;
  return {
    sessionId: row.session_id,
    events: events?.meta.changes ?? 0,
    deliveries: deleted?.meta.changes ?? 0,
  };
}
