/**
 * Reads of a workflow's row that the webhook receiver and the result handles make on the request
 * path (docs/api/webhooks.md, docs/scaling.md#runner-shards): one indexed D1 read each.
 */
import { and, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { workflows, workspaces } from "../../db/schema";

/**
 * How many runner objects take a workflow's calls now, and how many ever did (its executions and
 * request log may be on any of those) (docs/scaling.md#runner-shards).
 */
export type WorkflowShards = { shards: number; shardsEver: number };

/**
 * The workflow behind a webhook URL's slugs, whatever its status, with how many runner objects
 * take its calls now; null when none.
 */
export async function workflowIdBySlugs(
  db: DrizzleD1Database,
  workspaceSlug: string,
  slug: string,
): Promise<{ id: string; shards: number } | null> {
  const row = await db
    .select({ id: workflows.id, shards: workflows.runnerShards })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .where(and(eq(workspaces.slug, workspaceSlug), eq(workflows.slug, slug)))
    .get();
  return row ?? null;
}

/** A workflow's shard counts (any workspace), or null when it does not exist; one indexed read. */
export async function workflowShards(
  db: DrizzleD1Database,
  id: string,
): Promise<WorkflowShards | null> {
  const row = await db
    .select({ shards: workflows.runnerShards, shardsEver: workflows.runnerShardsEver })
    .from(workflows)
    .where(eq(workflows.id, id))
    .get();
  return row ?? null;
}
