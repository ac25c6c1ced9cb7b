/**
 * The workspace's own settings (docs/api/manage.md#workspace): today its retention of
 * conversations, executions, request log entries and events (docs/security.md#retention).
 */
import { eq } from "drizzle-orm";
import { database } from "../db/database";
import { type Retention, retentionOf } from "../db/retention";
import { workflows, workspaces } from "../db/schema";
import type { AppBindings } from "../platform/env";
import { notFound } from "../platform/errors";
import { isoTime } from "../platform/ids";
import { onEveryShard } from "../workflows/runner/client";

/** The workspace as its members see it; `retention` with the defaults filled in. */
export type WorkspaceView = {
  id: string;
  slug: string;
  name: string;
  createdAt: string;
  retention: Retention;
};

/** The workspace. @throws ApiError 404 not_found (a workspace deleted under its member) */
export async function getWorkspace(env: AppBindings, workspaceId: string): Promise<WorkspaceView> {
  const row = await database(env)
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace.");
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    createdAt: isoTime(row.createdAt),
    retention: retentionOf(row.retention),
  };
}

/**
 * Changes what the workspace keeps how long: the given values replace the stored ones, the others
 * stay. Its workflows' runners read it again at once (the request log's age applies from the next
 * read); the sweeps that delete what is past it run daily on the objects' alarms.
 * @returns the workspace as it now is
 */
export async function updateRetention(
  env: AppBindings,
  workspaceId: string,
  changes: Partial<Retention>,
): Promise<WorkspaceView> {
  const db = database(env);
  const current = await getWorkspace(env, workspaceId);
  const retention = { ...current.retention, ...changes };
  await db.update(workspaces).set({ retention }).where(eq(workspaces.id, workspaceId));
  const flows = await db
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(eq(workflows.workspaceId, workspaceId));
  await Promise.all(
    flows.map((flow) =>
      onEveryShard(env, flow.id, flow.shards, (runner) => runner.configure(flow.id)),
    ),
  );
  return { ...current, retention };
}
