/**
 * A job phase over every runner of every workflow (of one workspace, or of all), a page of one
 * runner's records per step (docs/architecture.md#maintenance-jobs): the reseal and the erasure
 * walk the runners this way.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import { database } from "../../db/database";
import { workflows } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import { workflowRunner } from "../../workflows/runner/client";
import type { WorkflowRunnerContract } from "../../workflows/runner/contract";

/** Where the walk is: a workflow's shard, after a record key (null: its first page). */
type RunnerCursor = { workflowId: string; shard: number; shards: number; after: string | null };

/** The first shard of the first workflow after `workflowId` (null: from the first), or null. */
async function nextWorkflow(
  env: AppBindings,
  after: string | null,
  workspaceId: string | undefined,
): Promise<RunnerCursor | null> {
  const [row] = await database(env)
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(
      and(
        workspaceId ? eq(workflows.workspaceId, workspaceId) : undefined,
        after ? gt(workflows.id, after) : undefined,
      ),
    )
    .orderBy(asc(workflows.id))
    .limit(1);
  return row
    ? { workflowId: row.id, shard: 0, shards: Math.max(1, row.shards), after: null }
    : null;
}

/** Runner pages one step does at most: a step is one alarm of the job's object. */
const PAGES_PER_STEP = 25;

/**
 * One step of the walk: up to PAGES_PER_STEP pages, from the runner the cursor names (the first
 * one for null) on.
 * @param page does the work on one runner after a record key; returns where it got to (null:
 *   that runner is done) and its counts
 * @returns the cursor to go on from (null: every runner is done) and the page's counts
 */
export async function walkRunners(
  env: AppBindings,
  cursor: string | null,
  workspaceId: string | undefined,
  page: (
    runner: DurableObjectStub<WorkflowRunnerContract>,
    after: string | null,
  ) => Promise<{ next: string | null; counts: Record<string, number> }>,
): Promise<{ cursor: string | null; counts: Record<string, number> }> {
  let at: RunnerCursor | null = cursor
    ? JSON.parse(cursor)
    : await nextWorkflow(env, null, workspaceId);
  const counts: Record<string, number> = {};
  for (let pages = 0; at && pages < PAGES_PER_STEP; pages++) {
    const done = await page(workflowRunner(env, at.workflowId, at.shard), at.after);
    for (const [name, n] of Object.entries(done.counts)) counts[name] = (counts[name] ?? 0) + n;
    at = done.next
      ? { ...at, after: done.next }
      : at.shard + 1 < at.shards
        ? { ...at, shard: at.shard + 1, after: null }
        : await nextWorkflow(env, at.workflowId, workspaceId);
  }
  return { cursor: at ? JSON.stringify(at) : null, counts };
}
