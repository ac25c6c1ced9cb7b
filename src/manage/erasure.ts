/**
 * The erasure job (docs/security.md#erasure): everything of one person of a workspace, named by
 * their `externalId`, is deleted or erased, a page at a time. Its phases: the person's links (each
 * with its conversation, its stored lifecycle events and their deliveries, through the workspace's
 * ledger), then each runner of each of the workspace's workflows (executions that carried the
 * person erased; request log entries, captured samples and delivery keys that carry them deleted).
 * Every step finds only what is left, so a page repeated after a restart is harmless, and running
 * the erasure again completes with zero counts.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import { database } from "../db/database";
import { links, workflows } from "../db/schema";
import { linkLedger } from "../launch/ledger/client";
import type { AppBindings } from "../platform/env";
import { workflowRunner } from "../webhooks/runner/client";
import type { JobParams } from "./jobs/contract";
import type { JobPhase } from "./jobs/phase";

const LINKS_PAGE = 50;
const RECORDS_PAGE = 200;

function person(params: JobParams): { workspaceId: string; externalId: string } {
  const { workspaceId, externalId } = params;
  if (!workspaceId || externalId === undefined) throw new Error("An erasure needs its person.");
  return { workspaceId, externalId };
}

/** The person's links, a page at a time; the cursor is the last link id. */
const linksPhase: JobPhase = async (env, cursor, params) => {
  const { workspaceId, externalId } = person(params);
  const rows = await database(env)
    .select({ id: links.id })
    .from(links)
    .where(
      and(
        eq(links.workspaceId, workspaceId),
        eq(links.participantExternalId, externalId),
        cursor ? gt(links.id, cursor) : undefined,
      ),
    )
    .orderBy(asc(links.id))
    .limit(LINKS_PAGE);
  const counts = { links: 0, conversations: 0, messages: 0, events: 0, deliveries: 0 };
  const ledger = linkLedger(env, workspaceId);
  for (const row of rows) {
    const erased = await ledger.eraseLink(workspaceId, row.id);
    if (!erased) continue;
    counts.links += 1;
    counts.conversations += erased.conversation ? 1 : 0;
    counts.messages += erased.messages;
    counts.events += erased.events;
    counts.deliveries += erased.deliveries;
  }
  return { cursor: rows.length < LINKS_PAGE ? null : (rows.at(-1)?.id ?? null), counts };
};

/** Where the runners phase is: a workflow's shard, after a record key (null: its first page). */
type RunnerCursor = { workflowId: string; shard: number; shards: number; after: string | null };

async function nextWorkflow(env: AppBindings, workspaceId: string, after: string | null) {
  const [row] = await database(env)
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), after ? gt(workflows.id, after) : undefined))
    .orderBy(asc(workflows.id))
    .limit(1);
  return row
    ? { workflowId: row.id, shard: 0, shards: Math.max(1, row.shards), after: null }
    : null;
}

/** Each runner of each of the workspace's workflows; the cursor is a RunnerCursor. */
const runnersPhase: JobPhase = async (env, cursor, params) => {
  const { workspaceId, externalId } = person(params);
  const at: RunnerCursor | null = cursor
    ? JSON.parse(cursor)
    : await nextWorkflow(env, workspaceId, null);
  if (!at) return { cursor: null, counts: { executions: 0, requests: 0 } };
  const runner = workflowRunner(env, at.workflowId, at.shard);
  const page = await runner.eraseRecords(externalId, at.after, RECORDS_PAGE);
  const next: RunnerCursor | null = page.next
    ? { ...at, after: page.next }
    : at.shard + 1 < at.shards
      ? { ...at, shard: at.shard + 1, after: null }
      : await nextWorkflow(env, workspaceId, at.workflowId);
  return {
    cursor: next ? JSON.stringify(next) : null,
    counts: { executions: page.executions, requests: page.requests },
  };
};

/** The erasure job's phases, in order. */
export const ERASURE_PHASES: JobPhase[] = [linksPhase, runnersPhase];
