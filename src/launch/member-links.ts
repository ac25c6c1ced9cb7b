/**
 * Links for the workspace's members (docs/api/manage.md#links): the launch API's own services
 * (src/launch/links.ts, search.ts) over the whole workspace, counted against no widget key, and
 * the look-up with the conversation's messages, which widget keys never see. Never sees a Hono
 * context.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { richWires } from "../conversations";
import type { StoredMessage } from "../conversations/conversation/contract";
import { isoTime } from "../platform/ids";
import type { LinkLedgerApi } from "./ledger/contract";
import type { LinkDetail } from "./link-detail-schema";
import { findLinkRow, LINK_NOT_FOUND, type LinkScope } from "./link-rules";
import { endLinkConversation, type LinkAccess, ledgerValue, revokeLink, toLaunch } from "./links";
import type { LaunchList, ListLaunchesQuery } from "./schemas";
import { listLinks } from "./search";

/** What the member routes use of the workspace's link ledger. */
export type MemberLedger = Pick<LinkLedgerApi, "revokeWorkspaceLink" | "endLink">;

/** A member sees every link of the workspace, whatever its agent. */
const scopeOf = (workspaceId: string): LinkScope => ({ workspaceId, flowIds: null });

/**
 * The launch services' ledger access for a member: look-ups read D1, where the ledger writes
 * every change before answering (as the list does); revocations and ends go through the ledger,
 * the links' single writer, without counting against a key's rate limit.
 */
function memberAccess(db: DrizzleD1Database, ledger: MemberLedger): LinkAccess<LinkScope> {
  return {
    lookupLink: async (scope, linkId) => {
      const link = await findLinkRow(db, scope.workspaceId, linkId);
      return link ? { ok: true, value: link } : { ok: false, refusal: LINK_NOT_FOUND };
    },
    revokeLink: (scope, linkId) => ledger.revokeWorkspaceLink(scope.workspaceId, linkId),
    endLink: (workspaceId, linkId, endedAt, reason) =>
      ledger.endLink(workspaceId, linkId, endedAt, reason),
  };
}

/**
 * One page of the workspace's links, newest first, with the launch list's filters and cursor
 * (docs/api/launch.md#listing-links).
 * @throws ApiError 400 invalid_request for a cursor not given out by this API
 */
export function listWorkspaceLinks(
  db: DrizzleD1Database,
  workspaceId: string,
  query: ListLaunchesQuery,
  now = Date.now(),
): Promise<LaunchList> {
  return listLinks(db, scopeOf(workspaceId), query, now);
}

/**
 * The link as the launch look-up shows it, plus its conversation's messages (oldest first, `at`
 * in ISO 8601) once it was opened, an agent's with its Markdown `blocks` as the chat gets them
 * (docs/chat.md#formatting), and the person's rating (docs/api/conversations.md#rating).
 * @param transcript reads the messages of a conversation session (its object's `transcript()`)
 * @throws ApiError 404 not_found outside the workspace
 */
export async function getWorkspaceLink(
  db: DrizzleD1Database,
  ledger: MemberLedger,
  workspaceId: string,
  linkId: string,
  transcript: (sessionId: string) => Promise<StoredMessage[]>,
  now = Date.now(),
): Promise<LinkDetail> {
  const row = ledgerValue(await memberAccess(db, ledger).lookupLink(scopeOf(workspaceId), linkId));
  const link = toLaunch(row, now);
  if (!link.conversation) return { ...link, conversation: null };
  const messages = await transcript(link.conversation.sessionId);
  const rating =
    row.ratingScore !== null && row.ratedAt !== null
      ? { score: row.ratingScore, comment: row.ratingComment, ratedAt: isoTime(row.ratedAt) }
      : null;
  const conversation = { ...link.conversation, messages: await richWires(messages), rating };
  return { ...link, conversation };
}

/**
 * Revokes a link of the workspace from any state, as the launch API does (docs/api/launch.md):
 * an open chat closes at once; repeating it changes nothing.
 * @throws ApiError 404 not_found outside the workspace
 */
export function revokeWorkspaceLink(
  db: DrizzleD1Database,
  ledger: MemberLedger,
  workspaceId: string,
  linkId: string,
): Promise<void> {
  return revokeLink(memberAccess(db, ledger), scopeOf(workspaceId), linkId);
}

/**
 * Ends the link's conversation without revoking the link, as the launch API does
 * (docs/api/launch.md#ending-a-conversation; the event's reason is `server`).
 * @param endConversation tells the conversation object of a session to end
 * @throws ApiError 404 not_found outside the workspace, 409 link_not_open for a link never opened
 */
export function endWorkspaceLink(
  db: DrizzleD1Database,
  ledger: MemberLedger,
  workspaceId: string,
  linkId: string,
  endConversation: (sessionId: string, now: number) => Promise<void>,
): Promise<void> {
  return endLinkConversation(
    memberAccess(db, ledger),
    scopeOf(workspaceId),
    linkId,
    endConversation,
  );
}
