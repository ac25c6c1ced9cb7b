/**
 * A finished analysis recorded (docs/events.md#conversationanalyzed): on the link with the lifecycle
 * event `conversation.analyzed` (by the workspace's link ledger, which writes every link change),
 * and as the workflow trigger's event of the same name.
 */
import type { ConversationAnalysis, Link } from "../../db/schema";
import { linkLedger } from "../../launch/ledger/client";
import type { AppBindings } from "../../platform/env";
import { deliverConversationEvent } from "../workflow-triggers";

/**
 * Stores the analysis with its event (only the first analysis of a link is kept), then starts the
 * workflows listening with the analysis stored; none for a link erased meanwhile, whose person's
 * details no new execution may hold (docs/security.md#erasure).
 * @throws when the ledger, D1 or a runner cannot be reached; the caller retries
 */
export async function recordAnalysis(
  env: AppBindings,
  link: Link,
  analysis: ConversationAnalysis,
  now: number,
): Promise<void> {
  const ledger = linkLedger(env, link.workspaceId);
  const stored = await ledger.recordAnalysis(link.workspaceId, link.id, analysis, now);
  // A racing job's analysis may be the one kept: workflows get what the link and event hold.
  if (stored) await startAnalyzedWorkflows(env, link, stored, now);
}

/** Starts the workflows whose trigger listens to `conversation.analyzed`; a repeat starts none. */
export async function startAnalyzedWorkflows(
  env: AppBindings,
  link: Link,
  analysis: ConversationAnalysis,
  now: number,
): Promise<void> {
  if (!link.sessionId) return;
  const facts = {
    workspaceId: link.workspaceId,
    linkId: link.id,
    sessionId: link.sessionId,
    flowId: link.flowId,
    channelId: link.channelId,
    participant: { name: link.participantName },
    participantExternalId: link.participantExternalId,
  };
  // One event per link: execution ids derive from this id, so a retry starts nothing twice; the
  // token's hash, never shown, keeps them unguessable as the Conversation's outbox ids are.
  const item = {
    id: `analyzed_${link.tokenHash}`,
    event: "conversation.analyzed" as const,
    at: now,
  };
  await deliverConversationEvent(env, facts, { ...item, analysis });
}
