/**
 * Workflows (docs/api/manage.md, docs/api/webhooks.md): create, read, replace, delete, start and stop. Definitions are
 * validated (input.ts: the pure engine's `parseDefinition`, every problem at once) and stored with
 * their defaults; the canvas's sticky notes are stored beside them (docs/api/webhooks.md#notes).
 * Each write then tells the workflow's runner to re-read it, so a stop takes effect at once.
 */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { isUniqueViolation } from "../../db/errors";
import { workspaceRow } from "../../db/rows";
import { type Workflow, workflows, workspaces } from "../../db/schema";
import { ApiError, notFound } from "../../platform/errors";
import { isoTime, newId } from "../../platform/ids";
import { idsOf, type PageQuery, readPage } from "../../platform/paging";
import type { WorkflowConcurrency, WorkflowNote } from "../nodes/types";
import { shardCount } from "../runner/shards";
import { validDefinition } from "./input";
import type { WorkflowShards } from "./lookups";
import type { WorkflowInput } from "./schemas";

/**
 * Tells the workflow's runners, shards 0 to `shards - 1`, that the stored workflow changed (or is
 * gone) (docs/scaling.md#runner-shards).
 */
export type NotifyRunner = (workflowId: string, shards: number) => Promise<void>;

export type WorkflowView = {
  id: string;
  name: string;
  slug: string;
  status: "running" | "stopped";
  nodes: Record<string, unknown>[];
  connections: Record<string, unknown>[];
  concurrency: WorkflowConcurrency | null;
  notes: WorkflowNote[];
  webhookUrls: Record<string, string>;
  webhookTestUrls: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

/** `{APP_URL}/webhooks/<workspace slug>/<workflow slug>/<node key>` (docs/api/webhooks.md#urls). */
export function webhookUrl(appUrl: string, workspaceSlug: string, slug: string, key: string) {
  return `${appUrl}/webhooks/${workspaceSlug}/${slug}/${key}`;
}

/** A node's test URL (docs/webhooks.md#capture): its webhook URL under `/webhook-test/`. */
export function webhookTestUrl(webhookUrl: string, appUrl: string): string {
  return `${appUrl}/webhook-test/${webhookUrl.slice(`${appUrl}/webhooks/`.length)}`;
}

function toView(row: Workflow, workspaceSlug: string, appUrl: string): WorkflowView {
  const webhookUrls: Record<string, string> = {};
  const webhookTestUrls: Record<string, string> = {};
  for (const node of row.definition.nodes) {
    if (node.type !== "webhook") continue;
    const url = webhookUrl(appUrl, workspaceSlug, row.slug, node.key);
    webhookUrls[node.key] = url;
    webhookTestUrls[node.key] = webhookTestUrl(url, appUrl);
  }
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    status: row.status,
    nodes: row.definition.nodes,
    connections: row.definition.connections,
    concurrency: row.definition.concurrency ?? null,
    notes: row.notes,
    webhookUrls,
    webhookTestUrls,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

async function slugOf(db: DrizzleD1Database, workspaceId: string): Promise<string> {
  const row = await db
    .select({ slug: workspaces.slug })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace.");
  return row.slug;
}

async function findWorkflow(
  db: DrizzleD1Database,
  workspaceId: string,
  id: string,
): Promise<Workflow> {
  return workspaceRow(db, workflows, workspaceId, id, "No such workflow in this workspace.");
}

const slugTaken = (slug: string) =>
  new ApiError(409, "slug_taken", `The workspace already has a workflow with slug "${slug}".`);

/** Creates a stopped workflow (docs/api/manage.md). @throws 400 invalid_request, 409 slug_taken */
export async function createWorkflow(
  db: DrizzleD1Database,
  workspaceId: string,
  input: WorkflowInput,
  appUrl: string,
  now = Date.now(),
): Promise<WorkflowView> {
  const definition = await validDefinition(db, workspaceId, input);
  const shards = shardCount(definition);
  const row: Workflow = {
    id: newId("wf"),
    workspaceId,
    name: input.name,
    slug: input.slug,
    status: "stopped",
    definition,
    notes: input.notes,
    runnerShards: shards,
    runnerShardsEver: shards,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await db.insert(workflows).values(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(input.slug);
    throw error;
  }
  return toView(row, await slugOf(db, workspaceId), appUrl);
}

/** A page of the workspace's workflows, oldest first (then by id). @throws 400 for a bad cursor */
export async function listWorkflows(
  db: DrizzleD1Database,
  workspaceId: string,
  appUrl: string,
  query: PageQuery,
) {
  const list = { ids: idsOf("wf"), order: "asc" } as const;
  const where = eq(workflows.workspaceId, workspaceId);
  const [page, slug] = await Promise.all([
    readPage(db, workflows, where, query, list, (row) => row),
    slugOf(db, workspaceId),
  ]);
  return { ...page, data: page.data.map((row) => toView(row, slug, appUrl)) };
}

/** One workflow. @throws 404 not_found */
export async function getWorkflow(
  db: DrizzleD1Database,
  workspaceId: string,
  id: string,
  appUrl: string,
) {
  const [row, slug] = await Promise.all([
    findWorkflow(db, workspaceId, id),
    slugOf(db, workspaceId),
  ]);
  return toView(row, slug, appUrl);
}

/**
 * Replaces name, slug and definition; the status stays. Executions already running go on with the
 * definition they started with. @throws 400 invalid_request, 404 not_found, 409 slug_taken
 */
export async function replaceWorkflow(
  db: DrizzleD1Database,
  notify: NotifyRunner,
  workspaceId: string,
  id: string,
  input: WorkflowInput,
  appUrl: string,
  now = Date.now(),
): Promise<WorkflowView> {
  const existing = await findWorkflow(db, workspaceId, id);
  const definition = await validDefinition(db, workspaceId, input);
  // A change of shard count takes effect with the definition: the Worker learns it from the
  // runners (docs/scaling.md#runner-shards). Every shard that ever ran is told.
  const runnerShards = shardCount(definition);
  const runnerShardsEver = Math.max(existing.runnerShardsEver, runnerShards);
  const row: Workflow = {
    ...existing,
    name: input.name,
    slug: input.slug,
    definition,
    notes: input.notes,
    runnerShards,
    runnerShardsEver,
    updatedAt: now,
  };
  try {
    await db
      .update(workflows)
      .set({
        name: row.name,
        slug: row.slug,
        definition,
        notes: row.notes,
        runnerShards,
        runnerShardsEver,
        updatedAt: now,
      })
      .where(eq(workflows.id, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(input.slug);
    throw error;
  }
  await notify(id, runnerShardsEver);
  return toView(row, await slugOf(db, workspaceId), appUrl);
}

/** Starts or stops the workflow; a stopped workflow accepts nothing (docs/api/manage.md#workflows). @throws 404 not_found */
export async function setWorkflowStatus(
  db: DrizzleD1Database,
  notify: NotifyRunner,
  workspaceId: string,
  id: string,
  status: "running" | "stopped",
  appUrl: string,
  now = Date.now(),
): Promise<WorkflowView> {
  const existing = await findWorkflow(db, workspaceId, id);
  if (existing.status !== status) {
    await db.update(workflows).set({ status, updatedAt: now }).where(eq(workflows.id, id));
    await notify(id, existing.runnerShardsEver);
  }
  const row = existing.status === status ? existing : { ...existing, status, updatedAt: now };
  return toView(row, await slugOf(db, workspaceId), appUrl);
}

/** Deletes the workflow and, through its runner, its executions. @throws 404 not_found */
export async function deleteWorkflow(
  db: DrizzleD1Database,
  notify: NotifyRunner,
  workspaceId: string,
  id: string,
): Promise<void> {
  const existing = await findWorkflow(db, workspaceId, id);
  await db.delete(workflows).where(eq(workflows.id, id));
  await notify(id, existing.runnerShardsEver);
}

/**
 * Asserts the workflow exists in the workspace (for the executions and request-log routes).
 * @returns its shard counts, to reach the runners that hold its records
 * @throws 404 not_found
 */
export async function assertWorkflow(
  db: DrizzleD1Database,
  workspaceId: string,
  id: string,
): Promise<WorkflowShards> {
  const row = await findWorkflow(db, workspaceId, id);
  return { shards: row.runnerShards, shardsEver: row.runnerShardsEver };
}
