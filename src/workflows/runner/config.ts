/** What a runner reads of its workflow from D1 (docs/api/webhooks.md, docs/scaling.md#runner-shards). */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type Retention, retentionOf } from "../../db/retention";
import { workflows, workspaces } from "../../db/schema";
import type { WorkflowDefinition } from "../nodes/types";

export type RunnerConfig = {
  workflowId: string;
  workspaceId: string;
  workspaceSlug: string;
  slug: string;
  status: "running" | "stopped";
  definition: WorkflowDefinition;
  /** When the definition was saved (epoch ms): its version, for replays on the original one. */
  updatedAt: number;
  /** How many runner objects take its webhook calls now (docs/scaling.md#runner-shards). */
  shards: number;
  /** How long its workspace keeps executions and request log entries (docs/security.md#retention). */
  retention: Retention;
};

/** The workflow's current configuration, or null when it does not exist (deleted). */
export async function readRunnerConfig(
  db: DrizzleD1Database,
  workflowId: string,
): Promise<RunnerConfig | null> {
  const row = await db
    .select({
      workflowId: workflows.id,
      workspaceId: workflows.workspaceId,
      workspaceSlug: workspaces.slug,
      slug: workflows.slug,
      status: workflows.status,
      definition: workflows.definition,
      updatedAt: workflows.updatedAt,
      shards: workflows.runnerShards,
      retention: workspaces.retention,
    })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .where(eq(workflows.id, workflowId))
    .get();
  return row ? { ...row, retention: retentionOf(row.retention) } : null;
}
