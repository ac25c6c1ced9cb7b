/**
 * Deleting a workspace for the operator (`DELETE /v1/operator/workspaces/{id}`,
 * docs/api/manage.md#deleting-a-workspace): every D1 row it owns, then the state of its Durable
 * Objects, each through its own contract.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { conversation } from "../conversations/conversation/client";
import { auditLog } from "../db/audit-tables";
import { database } from "../db/database";
import { deliveryAttempts, eventDeliveries, eventEndpoints, events } from "../db/event-tables";
import {
  agents,
  channels,
  links,
  members,
  secrets,
  widgetKeys,
  workflows,
  workspaces,
} from "../db/schema";
import { passkeys, sessions, signInLinks, webauthnChallenges } from "../db/session-tables";
import { linkLedger } from "../launch/ledger/client";
import type { AppBindings } from "../platform/env";
import { notFound } from "../platform/errors";
import { log } from "../platform/log";
import { onEveryShard } from "../workflows/runner/client";

/** Objects cleared at once: a large workspace's conversations go in waves, not all together. */
const OBJECTS_AT_ONCE = 32;

/**
 * Deletes the workspace and everything in it. The D1 rows go first, in one transaction that also
 * reads which objects hold the workspace's state: from then on no credential of the workspace
 * authenticates and no link, chat or webhook of it resolves, so nothing can reach those objects
 * and write to them again. Then each object forgets what it holds: every shard of each workflow's
 * runners (as deleting a workflow does: the runner finds its workflow gone and clears itself),
 * the workspace's link ledger, and the conversation of every link that was opened.
 * @throws 404 not_found for an unknown workspace (also when it was deleted already)
 * @throws the first failure of an object that could not be cleared, after trying every object
 *   (the rows are gone by then; the failure is logged with how many objects were left)
 */
export async function deleteWorkspace(env: AppBindings, workspaceId: string): Promise<void> {
  const db = database(env);
  const ofDeliveries = eq(eventDeliveries.workspaceId, workspaceId);
  const memberIds = db
    .select({ id: members.id })
    .from(members)
    .where(eq(members.workspaceId, workspaceId));
  const deliveryIds = db
    .select({ id: eventDeliveries.id })
    .from(eventDeliveries)
    .where(ofDeliveries);
  // Children before parents: D1 enforces the foreign keys.
  const [found, flows, opened] = await db.batch([
    db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .select({ id: workflows.id, shards: workflows.runnerShardsEver })
      .from(workflows)
      .where(eq(workflows.workspaceId, workspaceId)),
    db
      .select({ sessionId: links.sessionId })
      .from(links)
      .where(and(eq(links.workspaceId, workspaceId), isNotNull(links.sessionId))),
    // Its audit log too: entries name its members and their networks. The deletion's own entry
    // is written afterwards to the operator's log (src/audit/record.ts).
    db.delete(auditLog).where(eq(auditLog.workspaceId, workspaceId)),
    db.delete(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, deliveryIds)),
    db.delete(eventDeliveries).where(ofDeliveries),
    db.delete(events).where(eq(events.workspaceId, workspaceId)),
    db.delete(eventEndpoints).where(eq(eventEndpoints.workspaceId, workspaceId)),
    db.delete(webauthnChallenges).where(inArray(webauthnChallenges.memberId, memberIds)),
    db.delete(passkeys).where(eq(passkeys.workspaceId, workspaceId)),
    db.delete(sessions).where(eq(sessions.workspaceId, workspaceId)),
    db.delete(signInLinks).where(eq(signInLinks.workspaceId, workspaceId)),
    db.delete(channels).where(eq(channels.workspaceId, workspaceId)),
    db.delete(links).where(eq(links.workspaceId, workspaceId)),
    db.delete(agents).where(eq(agents.workspaceId, workspaceId)),
    db.delete(widgetKeys).where(eq(widgetKeys.workspaceId, workspaceId)),
    db.delete(secrets).where(eq(secrets.workspaceId, workspaceId)),
    db.delete(workflows).where(eq(workflows.workspaceId, workspaceId)),
    db.delete(members).where(eq(members.workspaceId, workspaceId)),
    db.delete(workspaces).where(eq(workspaces.id, workspaceId)),
  ]);
  if (found.length === 0) throw notFound("No such workspace.");

  const clears: (() => Promise<unknown>)[] = [
    () => linkLedger(env, workspaceId).forgetWorkspace(),
    ...flows.map(
      (flow) => () =>
        onEveryShard(env, flow.id, flow.shards, (runner) => runner.configure(flow.id)),
    ),
    ...opened.map((row) => () => conversation(env, row.sessionId as string).erase()),
  ];
  const failures: unknown[] = [];
  for (let i = 0; i < clears.length; i += OBJECTS_AT_ONCE) {
    const wave = await Promise.allSettled(clears.slice(i, i + OBJECTS_AT_ONCE).map((c) => c()));
    for (const result of wave) if (result.status === "rejected") failures.push(result.reason);
  }
  if (failures.length > 0) {
    log("error", "workspace_objects_left", {
      workspaceId,
      failed: failures.length,
      objects: clears.length,
      error: failures[0],
    });
    throw failures[0];
  }
}
