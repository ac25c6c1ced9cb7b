/**
 * Running an ended conversation's analysis from the analyses queue (docs/api/conversations.md#analysis):
 * at least once, retried with backoff on failure, `status: "failed"` after the last try. The
 * brain's tries are counted in the message (`tries`), apart from the queue's deliveries.
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
/**
 * Deliveries of one queue message: wrangler.toml's `max_retries` for the analyses queue, plus one.
 * They cover the ledger and D1 (and the end not recorded yet), never the brain's tries, which each
 * get a message of their own.
 */
export const ANALYSIS_DELIVERIES = 11;

/** Seconds before delivering a message again: 5 doubling to 10 min, about 40 min over all of them. */
export function redeliveryDelay(attempts: number): number {
  return Math.min(5 * 2 ** (Math.max(attempts, 1) - 1), 600);
}

/**
 * What became of one delivery: done (recorded, or nothing to do); to be delivered again (the end
 * is not recorded on the link yet: its event comes first); or the brain failed and `next`, the
 * next try, is to be queued after `inSeconds`.
 */
export type AnalysisOutcome =
  | { done: true }
  | { redeliver: true }
  | { next: AnalysisJob; inSeconds: number };

/**
 * One try of `job` (its try number is `job.tries` + 1): nothing for an erased link; for one
 * analysed already, the workflows are started again (a repeat starts nothing twice); else the
 * brain's analysis is validated and recorded, or after a failure the next try is returned, until
 * the last try records `status: "failed"`.
 * @throws when D1, the ledger or a runner cannot be reached; the caller delivers it again
 */
export async function runAnalysis(
  env: AppBindings,
  job: AnalysisJob,
  brain: AgentBrain = chooseBrain(env),
  now = Date.now(),
): Promise<AnalysisOutcome> {
  const link = await linkOf(env, job);
  if (!link) return { done: true };
  if (link.analysis) {
    await startAnalyzedWorkflows(env, link, link.analysis, now);
    return { done: true };
  }
  if (link.endedAt === null) return { redeliver: true };
  const context = await contextOf(env, link);
  const tries = (job.tries ?? 0) + 1;
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
    log("warn", "analysis_try_failed", { attempt: tries, brain: brain.kind, error });
    const delay = ANALYSIS_RETRY_SECONDS[tries - 1];
    if (tries < MAX_ANALYSIS_TRIES && delay !== undefined)
      return { next: { ...job, tries }, inSeconds: delay };
    analysis = failedAnalysis(job.settings);
  }
  await recordAnalysis(env, link, analysis, now);
  return { done: true };
}

/** Records `status: "failed"` for the job's link unless it is erased or analysed already. */
async function recordFailed(env: AppBindings, job: AnalysisJob, now: number): Promise<void> {
  const link = await linkOf(env, job);
  if (link && !link.analysis) await recordAnalysis(env, link, failedAnalysis(job.settings), now);
}

function linkOf(env: AppBindings, job: AnalysisJob): Promise<Link | undefined> {
  return database(env)
    .select()
    .from(links)
    .where(and(eq(links.id, job.linkId), eq(links.workspaceId, job.workspaceId)))
    .get();
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

/**
 * The analyses queue's consumer: each message one try of the brain, delivered again with backoff
 * while the end is not recorded or D1, the ledger or a runner fails; on its last delivery,
 * whatever failed, `status: "failed"` is recorded (docs/api/conversations.md#analysis).
 */
export async function consumeAnalyses(
  batch: MessageBatch<AnalysisJob>,
  env: AppBindings,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const last = message.attempts >= ANALYSIS_DELIVERIES;
      try {
        const outcome = await runAnalysis(env, message.body);
        if ("next" in outcome)
          await env.ANALYSES.send(outcome.next, { delaySeconds: outcome.inSeconds });
        if (!("redeliver" in outcome)) return message.ack();
      } catch (error) {
        log("error", "analysis_record_failed", { attempt: message.attempts, error });
      }
      if (!last) return message.retry({ delaySeconds: redeliveryDelay(message.attempts) });
      try {
        await recordFailed(env, message.body, Date.now());
      } catch (error) {
        log("error", "analysis_dropped", { error });
      }
      message.ack();
    }),
  );
}
