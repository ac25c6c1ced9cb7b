/**
 * What a conversation's outcome writes on its link, for the LinkLedger (docs/events.md#event-types):
 * its end, its analysis and the person's rating, each with its lifecycle event, each once.
 */
import type { ConversationAnalysis, Link } from "../../db/schema";
import type { EventEndReason } from "../../events/contract";
import { findLinkRow } from "../link-rules";
import type { LinkRating } from "./contract";
import { analysisStatements, endStatements, rateStatements } from "./lifecycle-events";
import type { LedgerParts } from "./revocation";

/**
 * The conversation ended (docs/api/conversations.md): active → `ended`, a revoked link gets its
 * end time; with `conversation.ended`. Repeating it changes nothing.
 */
export async function recordEnd(
  { db, d1, events, linkCache, write }: LedgerParts,
  workspaceId: string,
  linkId: string,
  endedAt: number,
  reason: EventEndReason,
): Promise<void> {
  const found = await findLinkRow(db, workspaceId, linkId);
  if (!found || found.endedAt !== null) return;
  const status = found.status === "active" ? "ended" : found.status;
  write();
  const ended: Link = { ...found, status, endedAt };
  await events.write(workspaceId, endStatements(d1, ended, reason));
  // Bumped after the write too: a look-up that read the old row meanwhile does not cache it.
  write();
  // A revocation may have won the race (then nothing changed): the next read goes to D1.
  linkCache.delete(linkId);
}

/**
 * The ended conversation's analysis, with `conversation.analyzed` (docs/events.md#conversationanalyzed);
 * only the first is kept; nothing for a link gone.
 * @returns the analysis the link holds after the call (this one or the first stored), null when
 *   the link is gone (erased meanwhile): what workflows may be started with
 */
export async function recordAnalysis(
  { db, d1, events, linkCache, write }: LedgerParts,
  workspaceId: string,
  linkId: string,
  analysis: ConversationAnalysis,
  at: number,
): Promise<ConversationAnalysis | null> {
  const found = await findLinkRow(db, workspaceId, linkId);
  if (!found) return null;
  if (found.analysis) return found.analysis;
  write();
  await events.write(workspaceId, analysisStatements(d1, found, analysis, at));
  write();
  // The look-up reads the analysis from D1 next (docs/api/launch.md#analysis).
  linkCache.delete(linkId);
  // Read back: a racing job may have stored its analysis first, an erasure removed the link.
  return (await findLinkRow(db, workspaceId, linkId))?.analysis ?? null;
}

/**
 * The person's rating of the ended conversation, with `conversation.rated`
 * (docs/api/conversations.md#rating); the first rating stays.
 */
export async function recordRating(
  { db, d1, events, linkCache, write }: LedgerParts,
  workspaceId: string,
  linkId: string,
  rating: LinkRating,
): Promise<void> {
  const found = await findLinkRow(db, workspaceId, linkId);
  if (!found || found.ratedAt !== null) return;
  write();
  const { score: ratingScore, comment: ratingComment, ratedAt } = rating;
  const rated: Link = { ...found, ratingScore, ratingComment, ratedAt };
  await events.write(workspaceId, rateStatements(d1, rated));
  write();
  linkCache.delete(linkId);
}
