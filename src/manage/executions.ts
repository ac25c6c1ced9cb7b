/**
 * Execution records, read from the workflow's runner (docs/api/webhooks.md): times as ISO strings, secret
 * values already redacted by the runner.
 */

import type { AppBindings } from "../platform/env";
import { notFound } from "../platform/errors";
import { isoTime, isoTimeOrNull } from "../platform/ids";
import { workflowRunner } from "../webhooks/runner/client";
import type { ExecutionRecord } from "../webhooks/runner/contract";
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
