/**
 * Revoking a link (docs/api/launch.md#operations): the ledger's write of it, with `link.revoked`
 * and, for an open conversation, `conversation.ended`; the conversation is closed at once.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { closeRevokedConversation } from "../../conversations/conversation/client";
import type { Link } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import type { EventWatch } from "./event-watch";
import { revokeStatements } from "./lifecycle-events";
import type { LinkCache } from "./link-cache";
import type { PendingLinks } from "./pending-links";

/** What link writes kept outside the ledger's class need of it; `write` bumps the ledger's epoch, run before and after a write. */
export type LedgerParts = {
  db: DrizzleD1Database;
  d1: D1Database;
  events: EventWatch;
  pending: PendingLinks;
  linkCache: LinkCache;
  write: () => void;
};

/**
 * Revokes `found`, a link not revoked yet, from any state; a pending slot is freed. Revocation
 * also ends an open conversation (docs/api/conversations.md); a session given before the link
 * opened (linkSession, docs/workflows.md#send-message) is no conversation that ended, but it is
 * closed too, so a workflow's open question ends.
 */
export async function revokeFound(
  { d1, events, pending, linkCache, write }: LedgerParts,
  env: Pick<AppBindings, "CONVERSATION">,
  found: Link,
): Promise<void> {
  // Loaded before the write: a rebuild overlapping it could read the link as still pending
  // and add it back after this call removed it.
  await pending.load(found.workspaceId);
  const revokedAt = Date.now();
  const opened = found.startedAt !== null;
  const endedAt = opened ? (found.endedAt ?? revokedAt) : null;
  const revoked: Link = { ...found, status: "revoked", revokedAt, endedAt };
  const wasOpen = opened && found.endedAt === null;
  write();
  const [update] = await events.write(found.workspaceId, revokeStatements(d1, revoked, wasOpen));
  pending.delete(found.id);
  // The session from D1, not `found`: a session given meanwhile must reach its revocation too.
  const row = update?.results?.[0] as { session_id?: string | null } | undefined;
  const sessionId = row?.session_id ?? null;
  linkCache.set({ ...revoked, sessionId: sessionId ?? found.sessionId });
  if (sessionId) await closeRevokedConversation(env, sessionId, revokedAt);
}
