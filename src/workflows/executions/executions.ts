/**
 * Execution records, read from the workflow's runner (docs/api/webhooks.md): times as ISO strings, secret
 * values already redacted by the runner.
 */

import { decodeKeyCursor, encodeKeyCursor } from "../../platform/cursor";
import type { AppBindings } from "../../platform/env";
import { ApiError, notFound } from "../../platform/errors";
import { isoTime, isoTimeOrNull } from "../../platform/ids";
import { idsOf, type Page, type PageQuery } from "../../platform/paging";
import type { ExecutionView } from "../definitions/schemas";
import { onEveryShard, runnerIfEver } from "../runner/client";
import type { ExecutionMode, ExecutionRecord, ReplayMode } from "../runner/contract";
import { listExecutionsMerged } from "../runner/merged-lists";
import { shardOfId } from "../runner/shards";
import { queueFull } from "./queue-full";

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
      ...(run.errorCode !== undefined ? { errorCode: run.errorCode } : {}),
      ...(run.errorDetails !== undefined ? { errorDetails: run.errorDetails } : {}),
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
    mode: record.mode,
  };
}

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;

const noSuchExecution = () => notFound("No such execution of this workflow.");

/** The runner shard that holds an execution (its id names it), or null (see `runnerIfEver`). */
const holder = (env: Env, workflowId: string, shardsEver: number, executionId: string) =>
  runnerIfEver(env, workflowId, shardsEver, shardOfId(executionId));

/**
 * Executions of a workflow (which the caller has checked belongs to the workspace), newest first,
 * merged over the `shardsEver` runner shards that may hold them; of `query.mode` only, when given
 * (docs/webhooks.md#test-runs).
 */
export async function listExecutions(
  env: Env,
  workflowId: string,
  shardsEver: number,
  query: PageQuery & { mode?: ExecutionMode | undefined },
): Promise<Page<ExecutionView>> {
  // The cursor is the last execution's id, made opaque: the runners page on from an id.
  const after =
    query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor, EXECUTION_ID);
  const page = await listExecutionsMerged(
    env,
    workflowId,
    shardsEver,
    query.limit,
    after,
    query.mode,
  );
  const last = page.data.at(-1);
  return {
    data: page.data.map(toExecutionView),
    hasMore: page.hasMore,
    nextCursor: page.hasMore && last ? encodeKeyCursor(last.id) : null,
  };
}

const EXECUTION_ID = idsOf("exe");

/** One execution, from the shard its id names. @throws 404 not_found */
export async function getExecution(
  env: Env,
  workflowId: string,
  shardsEver: number,
  executionId: string,
): Promise<ExecutionView> {
  const runner = holder(env, workflowId, shardsEver, executionId);
  const record = runner ? await runner.getExecution(executionId) : null;
  if (!record) throw noSuchExecution();
  return toExecutionView(record);
}

/**
 * Replays one execution: a new one with the same trigger input (docs/webhooks.md#replay); `as`
 * "test" makes it a test run (docs/webhooks.md#test-runs).
 * @returns the new execution's record, once recorded
 * @throws 404 not_found, 409 replay_unavailable, 429 queue_full
 */
export async function replayExecution(
  env: Env,
  workflowId: string,
  shardsEver: number,
  executionId: string,
  mode: ReplayMode,
  as?: ExecutionMode,
): Promise<ExecutionView> {
  // The replay runs on the shard of the execution it replays, which holds its input.
  const runner = holder(env, workflowId, shardsEver, executionId);
  if (!runner) throw noSuchExecution();
  const result = await runner.replay(workflowId, executionId, mode, as);
  if (result.ok) return toExecutionView(result.record);
  if (result.reason === "not_found") throw noSuchExecution();
  if (result.reason === "queue_full") throw queueFull();
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
 * defaults to now), oldest first, at most 1,000 per runner shard, each shard replaying its own.
 * @returns how many were queued, over every shard
 */
export async function replayFailed(
  env: Env,
  workflowId: string,
  shardsEver: number,
  input: { since: string; until?: string | undefined; definition: ReplayMode },
): Promise<{ count: number }> {
  const window = {
    since: Date.parse(input.since),
    until: input.until ? Date.parse(input.until) : Date.now() + 1,
  };
  const counts = await onEveryShard(env, workflowId, shardsEver, (runner) =>
    runner.replayFailed(workflowId, window, input.definition),
  );
  return { count: counts.reduce((sum, count) => sum + count, 0) };
}
