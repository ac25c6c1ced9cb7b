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

/**
 * Where the walk is: a workflow's shard, after a record key (null: its first page). A shard equal
 * to `shards` stands for the first runner of the next workflow.
 */
type RunnerCursor = { workflowId: string; shard: number; shards: number; after: string | null };

/** Adds `more` into `counts`, name by name. */
const addInto = (counts: Record<string, number>, more: Record<string, number>) => {
  for (const [name, n] of Object.entries(more)) counts[name] = (counts[name] ?? 0) + n;
};

/** Runners one step visits at most, at once: a step is one alarm of the job's object. */
const RUNNERS_PER_STEP = 25;

/** Up to `limit` workflows after `after` (null: from the first), in id order, with their shards. */
async function nextWorkflows(
  env: AppBindings,
  after: string | null,
  workspaceId: string | undefined,
  limit: number,
): Promise<{ id: string; shards: number }[]> {
  const rows = await database(env)
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(
      and(
        workspaceId ? eq(workflows.workspaceId, workspaceId) : undefined,
        after ? gt(workflows.id, after) : undefined,
      ),
    )
    .orderBy(asc(workflows.id))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, shards: Math.max(1, row.shards) }));
}

/** The runners a step visits, in walk order, from `at` (null: the first) on. */
async function runnersFrom(
  env: AppBindings,
  at: RunnerCursor | null,
  workspaceId: string | undefined,
): Promise<RunnerCursor[]> {
  const runners: RunnerCursor[] = [];
  if (at) {
    for (let shard = at.shard; shard < at.shards; shard++) {
      runners.push({ ...at, shard, after: shard === at.shard ? at.after : null });
    }
  }
  if (runners.length < RUNNERS_PER_STEP) {
    for (const row of await nextWorkflows(
      env,
      at?.workflowId ?? null,
      workspaceId,
      RUNNERS_PER_STEP,
    )) {
      for (let shard = 0; shard < row.shards; shard++) {
        runners.push({ workflowId: row.id, shard, shards: row.shards, after: null });
      }
    }
  }
  return runners.slice(0, RUNNERS_PER_STEP);
}

/**
 * One step of the walk: a page of each of up to RUNNERS_PER_STEP runners, at once, from the one
 * the cursor names (the first one for null) on. The walk goes on from the first of them that has
 * more, page after page of it alone, then at once again from the runner after it; the runners
 * that followed it in the step are visited again, which a phase must bear (the reseal skips what
 * is sealed under the current key, the erasure finds nothing left to erase).
 * @param page does the work on one runner after a record key; returns where it got to (null:
 *   that runner is done) and its counts
 * @returns the cursor to go on from (null: every runner is done) and the step's counts
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
  const from: RunnerCursor | null = cursor ? JSON.parse(cursor) : null;
  if (from?.after) return await pagesOf(env, from, page);
  const runners = await runnersFrom(env, from, workspaceId);
  const done = await Promise.all(
    runners.map((at) => page(workflowRunner(env, at.workflowId, at.shard), at.after)),
  );
  const counts: Record<string, number> = {};
  for (const result of done) addInto(counts, result.counts);
  const more = done.findIndex((result) => result.next !== null);
  const last = runners.at(-1);
  const at: RunnerCursor | null =
    more >= 0
      ? { ...(runners[more] as RunnerCursor), after: done[more]?.next ?? null }
      : last && runners.length === RUNNERS_PER_STEP
        ? { ...last, shard: last.shard + 1, after: null }
        : null;
  return { cursor: at ? JSON.stringify(at) : null, counts };
}

/** Up to RUNNERS_PER_STEP pages of the one runner `at` names, one after another, from its cursor. */
async function pagesOf(
  env: AppBindings,
  at: RunnerCursor,
  page: Parameters<typeof walkRunners>[3],
): Promise<{ cursor: string | null; counts: Record<string, number> }> {
  const runner = workflowRunner(env, at.workflowId, at.shard);
  const counts: Record<string, number> = {};
  let after = at.after;
  for (let pages = 0; after !== null && pages < RUNNERS_PER_STEP; pages++) {
    const done = await page(runner, after);
    addInto(counts, done.counts);
    after = done.next;
  }
  const next: RunnerCursor = after ? { ...at, after } : { ...at, shard: at.shard + 1, after: null };
  return { cursor: JSON.stringify(next), counts };
}
