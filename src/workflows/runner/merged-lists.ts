/** Lists merged over runner shards, with exact cursors (docs/scaling.md#what-each-shard-holds). */
import type { AppBindings } from "../../platform/env";
import { onEveryShard, runnerIfEver, workflowRunner } from "./client";
import type { ExecutionMode, ExecutionPage } from "./contract";
import { createdAt } from "./execution-row";
import type { LoggedRequest } from "./request-log-entry";
import { shardOfId } from "./shards";

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;

/**
 * Executions newest first over shards (of `mode` only, when given): by creation time, higher shard
 * first, then each shard's order; `startingAfter` names its shard and, by its record, the time
 * others go on from.
 */
export async function listExecutionsMerged(
  env: Env,
  workflowId: string,
  shards: number,
  limit: number,
  startingAfter?: string,
  mode?: ExecutionMode,
): Promise<ExecutionPage> {
  if (shards <= 1)
    return await workflowRunner(env, workflowId).listExecutions(limit, startingAfter, mode);
  let pages: ExecutionPage[];
  if (startingAfter === undefined) {
    pages = await onEveryShard(env, workflowId, shards, (runner) =>
      runner.listExecutions(limit, undefined, mode),
    );
  } else {
    const cursorShard = shardOfId(startingAfter);
    const holder = runnerIfEver(env, workflowId, shards, cursorShard);
    const cursor = holder ? await holder.getExecution(startingAfter) : null;
    if (!cursor) return { data: [], hasMore: false };
    const at = createdAt(cursor);
    pages = await onEveryShard(env, workflowId, shards, (runner, shard) =>
      shard === cursorShard
        ? runner.listExecutions(limit, startingAfter, mode)
        : // Same millisecond: a lower shard's records come after the cursor, a higher one's before.
          runner.listExecutionsBefore(
            limit,
            { createdAt: at, inclusive: shard < cursorShard },
            mode,
          ),
    );
  }
  const merged = pages
    .flatMap((page, shard) => page.data.map((record, index) => ({ record, shard, index })))
    .sort(
      (a, b) => createdAt(b.record) - createdAt(a.record) || b.shard - a.shard || a.index - b.index,
    );
  return {
    data: merged.slice(0, limit).map(({ record }) => record),
    hasMore: merged.length > limit || pages.some((page) => page.hasMore),
  };
}

/** The request log newest first over shards, merged by id (ids sort in time order). */
export async function listRequestsMerged(
  env: Env,
  workflowId: string,
  shards: number,
  limit: number,
  filter: { outcome?: string; before?: string; maxAgeMs?: number },
): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
  const pages = await onEveryShard(env, workflowId, shards, (runner) =>
    runner.listRequests(limit, filter),
  );
  if (pages.length === 1) return pages[0] as { data: LoggedRequest[]; hasMore: boolean };
  const merged = pages
    .flatMap((page) => page.data)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return {
    data: merged.slice(0, limit),
    hasMore: merged.length > limit || pages.some((page) => page.hasMore),
  };
}
