/** An endpoint's delivery log: list, resend, recover, send a test (docs/events.md#delivery-log). */
import { and, eq, gte, inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "../db/database";
import {
  deliveryAttempts,
  type EventDelivery,
  type EventEndpoint,
  eventDeliveries,
  events,
} from "../db/event-tables";
import { linkLedger } from "../launch/ledger/client";
import type { AppBindings } from "../platform/env";
import { ApiError, notFound } from "../platform/errors";
import { isoTime, newId } from "../platform/ids";
import { outboundPolicy } from "../platform/outbound";
import { readPage } from "../platform/paging";
import { attemptsOf, recordAttempt } from "./attempts";
import { liveSecrets } from "./delivery";
import { findEndpoint } from "./endpoints";
import { recoverIncident, restartDeliveries } from "./incidents";
import { deliveryMessage, enqueueDeliveries, eventBody } from "./outbox";
import type { DeliveryView, ListDeliveriesQuery } from "./schemas";
import { sendOnce } from "./signing";

const DELIVERY_ID = /^dlv_[0-9A-Za-z]{1,60}$/;

/** The deliveries as the API shows them, each with its attempts (oldest first, `attemptsOf`). */
async function views(db: DrizzleD1Database, rows: EventDelivery[]): Promise<DeliveryView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [attempts, types] = await db.batch([
    db
      .select()
      .from(deliveryAttempts)
      .where(inArray(deliveryAttempts.deliveryId, ids))
      .orderBy(deliveryAttempts.at),
    db
      .select({ id: events.id, type: events.type })
      .from(events)
      .where(
        inArray(
          events.id,
          rows.map((row) => row.eventId),
        ),
      ),
  ]);
  const typeOf = new Map(types.map((row) => [row.id, row.type]));
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    eventType: typeOf.get(row.eventId) ?? "unknown",
    status: row.status,
    attempts: attemptsOf(row, attempts).map((attempt) => ({ ...attempt, at: isoTime(attempt.at) })),
    nextAttemptAt:
      row.status === "pending" && row.nextAttemptAt ? isoTime(row.nextAttemptAt) : null,
    createdAt: isoTime(row.createdAt),
  }));
}

/**
 * The endpoint's deliveries, newest first, in pages (`?status=&cursor=&limit=`).
 * @throws ApiError 404 not_found, 400 invalid_request for a cursor not given out
 */
export async function listDeliveries(
  db: DrizzleD1Database,
  workspaceId: string,
  endpointId: string,
  query: ListDeliveriesQuery,
) {
  await findEndpoint(db, workspaceId, endpointId);
  const where = and(
    eq(eventDeliveries.endpointId, endpointId),
    query.status ? eq(eventDeliveries.status, query.status) : undefined,
  );
  const list = { ids: DELIVERY_ID, order: "desc" } as const;
  const page = await readPage(db, eventDeliveries, where, query, list, (row) => row);
  return { ...page, data: await views(db, page.data) };
}

function refuseDisabled(endpoint: EventEndpoint): void {
  if (endpoint.status !== "enabled") {
    throw new ApiError(
      409,
      "endpoint_disabled",
      "The event endpoint is disabled; enable it first.",
    );
  }
}

/**
 * Sends a delivery again now (whatever its status), its retry schedule started afresh.
 * @throws ApiError 404 not_found, 409 endpoint_disabled
 */
export async function resendDelivery(
  env: AppBindings,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
  now = Date.now(),
): Promise<DeliveryView> {
  const db = database(env);
  refuseDisabled(await findEndpoint(db, workspaceId, endpointId));
  // Before the write: should the queue never get the message, the ledger's alarm relays it.
  await linkLedger(env, workspaceId).watchDeliveries(workspaceId);
  const [row] = await restartDeliveries(
    db,
    now,
    and(eq(eventDeliveries.id, deliveryId), eq(eventDeliveries.endpointId, endpointId)),
  );
  if (!row) throw notFound("No such delivery for this endpoint.");
  await enqueueDeliveries(env, [deliveryMessage(row)]);
  const [view] = await views(db, [row]);
  return view as DeliveryView;
}

/**
 * Resends every failed delivery created at or after `since` (epoch ms); how many.
 * @throws ApiError 404 not_found, 409 endpoint_disabled
 */
export async function recoverDeliveries(
  env: AppBindings,
  workspaceId: string,
  endpointId: string,
  since: number,
  now = Date.now(),
): Promise<number> {
  const db = database(env);
  refuseDisabled(await findEndpoint(db, workspaceId, endpointId));
  await linkLedger(env, workspaceId).watchDeliveries(workspaceId);
  const rows = await restartDeliveries(
    db,
    now,
    and(
      eq(eventDeliveries.endpointId, endpointId),
      eq(eventDeliveries.status, "failed"),
      gte(eventDeliveries.createdAt, since),
    ),
  );
  await enqueueDeliveries(env, rows.map(deliveryMessage));
  return rows.length;
}

/**
 * Sends an `event.test` now (enabled or not) and answers with its delivery after one attempt.
 * @throws ApiError 404 not_found
 */
export async function sendTestEvent(
  env: AppBindings,
  workspaceId: string,
  endpointId: string,
  now = Date.now(),
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryView> {
  const db = database(env);
  const endpoint = await findEndpoint(db, workspaceId, endpointId);
  const eventId = newId("evt");
  const body = eventBody(eventId, {
    workspaceId,
    linkId: null,
    type: "event.test",
    createdAt: now,
    data: { endpointId, message: "A test event from agent-edge." },
  });
  const delivery: EventDelivery = {
    id: newId("dlv"),
    workspaceId,
    endpointId,
    eventId,
    status: "pending",
    attempts: 0,
    step: 0,
    nextAttemptAt: null,
    claimedUntil: null,
    succeededAt: null,
    successStatus: null,
    successLatencyMs: null,
    successBody: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.batch([
    db
      .insert(events)
      .values({ id: eventId, workspaceId, linkId: null, type: "event.test", body, createdAt: now }),
    db.insert(eventDeliveries).values(delivery),
  ]);
  const secrets = await liveSecrets(env, endpoint, now);
  const attempt = await sendOnce(endpoint.url, secrets, eventId, body, {
    policy: outboundPolicy(env),
    fetchImpl,
  });
  const recorded = await recordAttempt(env, delivery, endpoint, attempt, now, false);
  // A test that succeeds ends an incident like any success (docs/operations.md#incidents).
  if (recorded.endedIncident?.autoRecover && endpoint.status === "enabled") {
    await recoverIncident(env, endpoint, recorded.endedIncident.since, now);
  }
  const row = await db
    .select()
    .from(eventDeliveries)
    .where(eq(eventDeliveries.id, delivery.id))
    .get();
  // Deleted with its endpoint while the attempt was under way.
  if (!row) throw notFound("No such event endpoint.");
  const [view] = await views(db, [row]);
  return view as DeliveryView;
}
