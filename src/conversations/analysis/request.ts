/** Asking for a conversation's analysis once it ended (docs/api/conversations.md#analysis). */
import type { AnalysisSettings } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import type { ConversationFacts } from "../conversation/contract";

/**
 * The analyses queue's message: which ended conversation to analyse, and how. Nothing of the
 * person: the consumer reads the link, so an erasure meanwhile leaves nothing to analyse.
 */
export type AnalysisJob = {
  workspaceId: string;
  linkId: string;
  sessionId: string;
  /** The agent's setting as the conversation opened. */
  settings: AnalysisSettings;
  /** The brain's tries that failed before this message (absent: none); each try is a message. */
  tries?: number;
};

/** The queue's name in wrangler.toml: the entry hands its batches to `consumeAnalyses`. */
export const ANALYSES_QUEUE = "agent-edge-analyses";

/**
 * Queues the analysis of an ended conversation whose agent asked for one; nothing otherwise. Sent
 * by the Conversation's outbox after the end, so the end never waits for it.
 * @throws when the queue refuses the message; the outbox retries (a repeat is analysed once)
 */
export async function requestAnalysis(
  env: Pick<AppBindings, "ANALYSES">,
  facts: ConversationFacts,
): Promise<void> {
  if (!facts.analysis) return;
  const job: AnalysisJob = {
    workspaceId: facts.workspaceId,
    linkId: facts.linkId,
    sessionId: facts.sessionId,
    settings: facts.analysis,
  };
  await env.ANALYSES.send(job);
}
