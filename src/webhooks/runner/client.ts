/**
 * The Workflow-runner Durable Object's client: one object per workflow, named by the workflow id, so
 * routes and services never touch the binding directly.
 */

import { eq } from "drizzle-orm";
import { database } from "../../db/database";
import { workflows } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import type { WorkflowRunnerContract } from "./contract";

/** The runner of `workflowId`. */
export function workflowRunner(
  env: Pick<AppBindings, "WORKFLOW_RUNNER">,
  workflowId: string,
): DurableObjectStub<WorkflowRunnerContract> {
  return env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));
}

/**
 * Tells every workflow runner of the workspace that its secrets changed, so the next execution
 * reads them again (docs/security.md#workspace-secrets). Runners also re-read them at least once a minute, so a runner that
 * could not be told here still catches up.
 */
export async function notifySecretsChanged(env: AppBindings, workspaceId: string): Promise<void> {
  const rows = await database(env)
    .select({ id: workflows.id })
    .from(workflows)
    .where(eq(workflows.workspaceId, workspaceId));
  await Promise.all(rows.map((row) => workflowRunner(env, row.id).secretsChanged()));
}
