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
import { links } from "../db/schema";
import { linkLedger } from "../launch/ledger/client";
import type { JobParams } from "./jobs/contract";
import type { JobPhase } from "./jobs/phase";
import { walkRunners } from "./jobs/runner-pages";

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

/** Each runner of each of the workspace's workflows, a page of its records per step. */
const runnersPhase: JobPhase = (env, cursor, params) => {
  const { workspaceId, externalId } = person(params);
  return walkRunners(env, cursor, workspaceId, async (runner, after) => {
    const page = await runner.eraseRecords(externalId, after, RECORDS_PAGE);
    return { next: page.next, counts: { executions: page.executions, requests: page.requests } };
  });
};

/** The erasure job's phases, in order. */
export const ERASURE_PHASES: JobPhase[] = [linksPhase, runnersPhase];
