/**
 * The Workflow-runner Durable Object's client: a workflow's runners are named by the workflow id
 * (shard 0) and, for a workflow spread over several, `<id>#<k>` (docs/scaling.md#runner-shards), so
 * routes and services never touch the binding directly.
 */

import { eq } from "drizzle-orm";
import { database } from "../../db/database";
import { workflows } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import type { WorkflowRunnerContract } from "./contract";
import { shardObjectName } from "./shards";

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;

/** Shard `shard` (default 0, the only one of most workflows) of the runners of `workflowId`. */
export function workflowRunner(
  env: Env,
  workflowId: string,
  shard = 0,
): DurableObjectStub<WorkflowRunnerContract> {
  const name = shardObjectName(workflowId, shard);
  return env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(name));
}

/**
 * Shard `shard` of the workflow's runners when the workflow ever had it (`shardsEver`), else null:
 * an id or handle naming a shard that never existed reaches no object (docs/scaling.md#runner-shards).
 */
export function runnerIfEver(
  env: Env,
  workflowId: string,
  shardsEver: number,
  shard: number,
): DurableObjectStub<WorkflowRunnerContract> | null {
  return shard < shardsEver ? workflowRunner(env, workflowId, shard) : null;
}

/**
 * Calls `each` on shards 0 to `shards - 1` of the workflow's runners at once; the results in shard
 * order. @throws the first failure, after every call settled
 */
export async function onEveryShard<T>(
  env: Env,
  workflowId: string,
  shards: number,
  each: (runner: DurableObjectStub<WorkflowRunnerContract>, shard: number) => Promise<T>,
): Promise<T[]> {
  const calls = Array.from({ length: Math.max(1, shards) }, (_, shard) =>
    each(workflowRunner(env, workflowId, shard), shard),
  );
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/**
 * Tells every workflow runner of the workspace, every shard of each, that its secrets changed, so
 * the next execution reads them again (docs/security.md#workspace-secrets). Runners also re-read
 * them at least once a minute, so a runner that could not be told here still catches up.
 */
export async function notifySecretsChanged(env: AppBindings, workspaceId: string): Promise<void> {
  const rows = await database(env)
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(eq(workflows.workspaceId, workspaceId));
  await Promise.all(
    rows.map((row) => onEveryShard(env, row.id, row.shards, (runner) => runner.secretsChanged())),
  );
}
