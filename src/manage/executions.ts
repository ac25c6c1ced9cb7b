/**
 * Execution records, read from the workflow's runner (docs/api/webhooks.md): times as ISO strings, secret
 * values already redacted by the runner.
 */

import type { AppBindings } from "../platform/env";
import { ApiError, notFound } from "../platform/errors";
import { isoTime, isoTimeOrNull } from "../platform/ids";
import { workflowRunner } from "../webhooks/runner/client";
import type { ExecutionRecord, ReplayMode } from "../webhooks/runner/contract";
import { QUEUE_FULL_RETRY_SECONDS } from "../webhooks/runner/slots";
import type { ExecutionView } from "./workflow-schemas";

/** An execution record as the API shows it. */
export function toExecutionView(record: ExecutionRecord): ExecutionView {
  return {
    id: record.id,
    workflowId: record.workflowId,
    status: record.status,
    trigger: record.trigger,
    nodes: record.nodes.map((run) => ({
      key: run.key,
      type: run.type,
      status: run.status,
      ...(run.output !== undefined ? { output: run.output } : {}),
      ...(run.error !== undefined ? { error: run.error } : {}),
      ...(run.attempts
        ? {
            attempts: run.attempts.map((attempt) => ({
              at: isoTime(attempt.at),
              status: attempt.status,
              ...(attempt.error !== undefined ? { error: attempt.error } : {}),
            })),
          }
        : {}),
      ...(run.answered ? { answered: true } : {}),
      startedAt: isoTime(run.startedAt),
      finishedAt: isoTimeOrNull(run.finishedAt),
    })),
    startedAt: isoTime(record.startedAt),
    finishedAt: isoTimeOrNull(record.finishedAt),
    replayOf: record.replayOf,
    queuedAt: isoTimeOrNull(record.queuedAt),
  };
}

/** Executions of a workflow (which the caller has checked belongs to the workspace), newest first. */
export async function listExecutions(
  env: Pick<AppBindings, "WORKFLOW_RUNNER">,
  workflowId: string,
  limit: number,
  startingAfter?: string,
): Promise<{ data: ExecutionView[]; hasMore: boolean }> {
  const page = await workflowRunner(env, workflowId).listExecutions(limit, startingAfter);
  return { data: page.data.map(toExecutionView), hasMore: page.hasMore };
}

/** One execution. @throws 404 not_found */
export async function getExecution(
  env: Pick<AppBindings, "WORKFLOW_RUNNER">,
  workflowId: string,
  executionId: string,
): Promise<ExecutionView> {
  const record = await workflowRunner(env, workflowId).getExecution(executionId);
  if (!record) throw notFound("No such execution of this workflow.");
  return toExecutionView(record);
}

/**
 * Replays one execution: a new one with the same trigger input (docs/webhooks.md#replay).
 * @returns the new execution's record, once recorded
 * @throws 404 not_found, 409 replay_unavailable
 */
export async function replayExecution(
  env: Pick<AppBindings, "WORKFLOW_RUNNER">,
  workflowId: string,
  executionId: string,
  mode: ReplayMode,
): Promise<ExecutionView> {
  const result = await workflowRunner(env, workflowId).replay(workflowId, executionId, mode);
  if (result.ok) return toExecutionView(result.record);
  if (result.reason === "not_found") throw notFound("No such execution of this workflow.");
  if (result.reason === "queue_full") {
    throw new ApiError(429, "queue_full", "The workflow's execution queue is full.", {
      headers: { "retry-after": String(QUEUE_FULL_RETRY_SECONDS) },
    });
  }
  throw new ApiError(
    409,
    "replay_unavailable",
    result.reason === "trigger_gone"
      ? "The execution's trigger node is no longer in the workflow; replay on the original definition."
      : "The execution's original definition was not kept; replay on the current one.",
  );
}

/**
 * Queues replays of the failed executions started from `since` until `until` (ISO times; until
 * defaults to now), oldest first, at most 1,000. @returns how many were queued
 */
export async function replayFailed(
  env: Pick<AppBindings, "WORKFLOW_RUNNER">,
  workflowId: string,
  input: { since: string; until?: string | undefined; definition: ReplayMode },
): Promise<{ count: number }> {
  const window = {
    since: Date.parse(input.since),
    until: input.until ? Date.parse(input.until) : Date.now() + 1,
  };
  const count = await workflowRunner(env, workflowId).replayFailed(
    workflowId,
    window,
    input.definition,
  );
  return { count };
}
