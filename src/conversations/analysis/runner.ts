/**
 * Running an ended conversation's analysis from the analyses queue (docs/api/conversations.md#analysis):
 * at least once, retried with backoff on failure, `status: "failed"` after the last try.
 */
import { and, eq } from "drizzle-orm";
import { database } from "../../db/database";
import { agents, type Link, links } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import { log } from "../../platform/log";
import { type AgentBrain, chooseBrain } from "../brains";
import { conversation } from "../conversation/client";
import type { ConversationContext } from "../conversation/contract";
import { recordAnalysis, startAnalyzedWorkflows } from "./record";
import type { AnalysisJob } from "./request";
import { failedAnalysis, validateAnalysis } from "./validate";

/** Tries of the brain per conversation (docs/limits.md#analysis). */
export const MAX_ANALYSIS_TRIES = 4;
/** Seconds before the 2nd, 3rd and 4th try. */
export const ANALYSIS_RETRY_SECONDS = [30, 120, 600] as const;
/** A try that takes longer has failed. */
export const ANALYSIS_DEADLINE_MS = 60_000;
/** Seconds to wait when the end is not recorded on the link yet (its event comes first). */
const END_PENDING_SECONDS = 5;

/** What became of one try: done (recorded, or nothing to do), or to be tried again later. */
export type AnalysisOutcome = { done: true } | { retryInSeconds: number };

/**
 * One try of `job` (its `attempt`th delivery, from 1): nothing for an erased link; for one analysed
 * already, the workflows are started again (a repeat starts nothing twice); else the brain's
 * analysis is validated and recorded, or after a failure tried again, until the last try records
 * `status: "failed"`.
 * @throws when D1 or a runner cannot be reached; the caller retries
 */
export async function runAnalysis(
  env: AppBindings,
  job: AnalysisJob,
  attempt: number,
  brain: AgentBrain = chooseBrain(env),
  now = Date.now(),
): Promise<AnalysisOutcome> {
  const link = await database(env)
    .select()
    .from(links)
    .where(and(eq(links.id, job.linkId), eq(links.workspaceId, job.workspaceId)))
    .get();
  if (!link) return { done: true };
  if (link.analysis) {
    await startAnalyzedWorkflows(env, link, link.analysis, now);
    return { done: true };
  }
  if (link.endedAt === null) return { retryInSeconds: END_PENDING_SECONDS };
  const context = await contextOf(env, link);
  let analysis: Link["analysis"];
  try {
    const transcript = await conversation(env, job.sessionId).transcript();
    const raw = await brain.analyze(
      {
        context,
        transcript: transcript.map((message) => ({ role: message.role, text: message.text })),
        settings: job.settings,
      },
      AbortSignal.timeout(ANALYSIS_DEADLINE_MS),
    );
    analysis = validateAnalysis(job.settings, raw);
  } catch (error) {
    log("warn", "analysis_try_failed", { attempt, brain: brain.kind, error });
    const delay = ANALYSIS_RETRY_SECONDS[attempt - 1];
    if (attempt < MAX_ANALYSIS_TRIES && delay !== undefined) return { retryInSeconds: delay };
    analysis = failedAnalysis(job.settings);
  }
  await recordAnalysis(env, link, analysis, now);
  return { done: true };
}

/** What the brain knows of the conversation: the agent as it is now (its name if deleted meanwhile). */
async function contextOf(env: AppBindings, link: Link): Promise<ConversationContext> {
  const agent = await database(env)
    .select({ name: agents.name, instructions: agents.instructions, model: agents.model })
    .from(agents)
    .where(and(eq(agents.id, link.flowId), eq(agents.workspaceId, link.workspaceId)))
    .get();
  return {
    agent: agent ?? { name: "the agent", instructions: null, model: null },
    participant: { name: link.participantName },
    parameters: link.parameters,
    globalTask: link.globalTask,
  };
}

/** The analyses queue's consumer: each message one try; the queue's own retries bound the rest. */
export async function consumeAnalyses(
  batch: MessageBatch<AnalysisJob>,
  env: AppBindings,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const outcome = await runAnalysis(env, message.body, message.attempts);
        if ("retryInSeconds" in outcome) message.retry({ delaySeconds: outcome.retryInSeconds });
        else message.ack();
      } catch (error) {
        log("error", "analysis_record_failed", { error });
        message.retry({ delaySeconds: ANALYSIS_RETRY_SECONDS[0] });
      }
    }),
  );
}
