/** Stubs of a workflow's runner shards (docs/scaling.md#runner-shards). */

import { eq } from "drizzle-orm";
import { database } from "../../db/database";
import { workflows } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import type { WorkflowRunnerContract } from "./contract";
import { shardObjectName } from "./shards";

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;
type Namespace = Env["WORKFLOW_RUNNER"];

/** Runner objects whose id is kept per namespace; the map starts over past it. */
const CACHED_IDS = 10_000;
/**
 * Object ids by object name, per namespace binding, for the isolate's life: `idFromName` hashes
 * the name on every call (a webhook call's), and an id, unlike a stub, may serve any request.
 */
const ids = new WeakMap<Namespace, Map<string, DurableObjectId>>();

/** Shard `shard` (default 0, the only one of most workflows) of the runners of `workflowId`. */
export function workflowRunner(
  env: Env,
  workflowId: string,
  shard = 0,
): DurableObjectStub<WorkflowRunnerContract> {
  const namespace = env.WORKFLOW_RUNNER;
  let known = ids.get(namespace);
  if (!known) {
    known = new Map();
    ids.set(namespace, known);
  }
  const name = shardObjectName(workflowId, shard);
  let id = known.get(name);
  if (!id) {
    if (known.size >= CACHED_IDS) known.clear();
    id = namespace.idFromName(name);
    known.set(name, id);
  }
  return namespace.get(id);
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
