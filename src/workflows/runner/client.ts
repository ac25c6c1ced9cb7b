/** Stubs of a workflow's runner shards (docs/scaling.md#runner-shards). */

import { eq } from "drizzle-orm";
import { database } from "../../db/database";
import { workflows } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import { namedObject } from "../../platform/object-ids";
import type { WorkflowRunnerContract } from "./contract";
import { shardObjectName } from "./shards";

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;
/** Shard `shard` (default 0, the only one of most workflows) of the runners of `workflowId`. */
export function workflowRunner(
  env: Env,
  workflowId: string,
  shard = 0,
): DurableObjectStub<WorkflowRunnerContract> {
  return namedObject(env.WORKFLOW_RUNNER, shardObjectName(workflowId, shard));
}

/** Shard `shard` if the workflow ever had it (`shardsEver`), else null: no object is created. */
export function runnerIfEver(
  env: Env,
  workflowId: string,
  shardsEver: number,
  shard: number,
): DurableObjectStub<WorkflowRunnerContract> | null {
  return shard < shardsEver ? workflowRunner(env, workflowId, shard) : null;
}

/** Calls `each` on shards 0 to `shards - 1` at once; results in order. @throws the first failure */
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
 * Tells every runner shard of the workspace its secrets changed (docs/security.md#workspace-secrets);
 * one not reached re-reads them within a minute anyway.
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
