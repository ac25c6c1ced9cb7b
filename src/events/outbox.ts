/**
 * The events outbox (docs/events.md#delivery): events and deliveries commit in one D1 batch with
 * their state change, then go onto the queue; the ledger relays those that never reached it.
 */
import { and, eq, isNull, lte, min, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type AnyEventType, type EventDelivery, eventDeliveries } from "../db/event-tables";
import type { AppBindings } from "../platform/env";
import { isoTime, newId } from "../platform/ids";
import { log } from "../platform/log";
import type { DeliveryMessage, EventData } from "./contract";

/** An event about to be recorded. */
export type NewEvent = {
  workspaceId: string;
  linkId: string | null;
  type: AnyEventType;
  createdAt: number;
  data: EventData | Record<string, unknown>;
  /** An SQL condition that must hold after the state change, or the event is not recorded. */
  when?: Condition;
};

/** Seconds a stale pending delivery waits past its due time before the ledger sends it again. */
export const RELAY_GRACE_MS = 120_000;

/** The JSON body of an event (docs/events.md#bodies). */
export function eventBody(id: string, event: NewEvent): string {
  return JSON.stringify({
    id,
    type: event.type,
    createdAt: isoTime(event.createdAt),
    data: event.data,
  });
}

/** An SQL condition with its `?` parameters. */
export type Condition = { sql: string; params: unknown[] };

/** True while an enabled endpoint of workspace ?1 listens to type ?2 (alias `e`). */
const LISTENING = `e.workspace_id = ?1 AND e.status = 'enabled'
  AND EXISTS (SELECT 1 FROM json_each(e.events) j WHERE j.value = ?2)`;

/**
 * Two statements, run after the state change in its batch: the event (unless no endpoint listens,
 * `when` fails or the link has one of its type) and a delivery per listener, returning `{ id }`s.
 */
export function eventStatements(
  d1: D1Database,
  event: NewEvent,
): [D1PreparedStatement, D1PreparedStatement] {
  const id = newId("evt");
  const { workspaceId, type, createdAt, when = { sql: "1", params: [] } } = event;
  // ?1 workspace, ?2 type, ?3 event id, ?4 the event's time, ?5 now (when its deliveries are
  // created and due: later than ?4 for a link.expired recorded late); the condition's come after.
  const shared = [workspaceId, type, id, createdAt, Date.now()];
  let n = shared.length;
  const numbered = when.sql.replace(/\?/g, () => `?${++n}`);
  return [
    d1
      .prepare(
        `INSERT OR IGNORE INTO events (id, workspace_id, link_id, type, body, created_at)
        SELECT ?3, ?1, ?${n + 1}, ?2, ?${n + 2}, ?4
        WHERE EXISTS (SELECT 1 FROM event_endpoints e WHERE ${LISTENING}) AND (${numbered})`,
      )
      .bind(...shared, ...when.params, event.linkId, eventBody(id, event)),
    d1
      .prepare(
        `INSERT INTO event_deliveries (id, workspace_id, endpoint_id, event_id, status, attempts,
          step, next_attempt_at, created_at, updated_at)
        SELECT 'dlv_' || lower(hex(randomblob(12))), e.workspace_id, e.id, ?3, 'pending', 0, 0, ?5, ?5, ?5
        FROM event_endpoints e
        WHERE ${LISTENING} AND EXISTS (SELECT 1 FROM events WHERE id = ?3)
        RETURNING id, event_id, endpoint_id`,
      )
      .bind(...shared),
  ];
}

/** The deliveries returned by the second statement of each `eventStatements` pair, as messages. */
export function createdDeliveries(results: readonly D1Result[]): DeliveryMessage[] {
  return results.flatMap((result) =>
    (result.results ?? []).flatMap((row) => {
      const { id, event_id, endpoint_id } = row as Record<string, unknown>;
      return typeof id === "string" &&
        id.startsWith("dlv_") &&
        typeof event_id === "string" &&
        typeof endpoint_id === "string"
        ? [{ deliveryId: id, eventId: event_id, endpointId: endpoint_id }]
        : [];
    }),
  );
}

/** The message of a delivery row: its id, event and endpoint. */
export function deliveryMessage(
  row: Pick<EventDelivery, "id" | "eventId" | "endpointId">,
): DeliveryMessage {
  return { deliveryId: row.id, eventId: row.eventId, endpointId: row.endpointId };
}

/** Puts deliveries onto the queue, 100 per send; a failure is logged: the ledger relays them later. */
export async function enqueueDeliveries(
  env: AppBindings,
  deliveries: readonly DeliveryMessage[],
  delaySeconds = 0,
): Promise<void> {
  for (let start = 0; start < deliveries.length; start += 100) {
    const messages = deliveries.slice(start, start + 100).map((body) => ({ body, delaySeconds }));
    try {
      await env.EVENT_DELIVERIES.sendBatch(messages);
    } catch (error) {
      log("warn", "event_enqueue_failed", { count: messages.length, error });
    }
  }
}

/**
 * Resends the workspace's deliveries overdue by more than RELAY_GRACE_MS (lost on the way).
 * @returns when to look again (epoch ms), or null while nothing is pending
 */
export async function relayStaleDeliveries(
  env: AppBindings,
  db: DrizzleD1Database,
  workspaceId: string,
  now: number,
): Promise<number | null> {
  const pending = and(
    eq(eventDeliveries.workspaceId, workspaceId),
    eq(eventDeliveries.status, "pending"),
  );
  const stale = await db
    .update(eventDeliveries)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(
      and(
        pending,
        lte(eventDeliveries.nextAttemptAt, now - RELAY_GRACE_MS),
        // Not one a consumer holds (an attempt under way): its claim ends first.
        or(isNull(eventDeliveries.claimedUntil), lte(eventDeliveries.claimedUntil, now)),
      ),
    )
    .returning({
      id: eventDeliveries.id,
      eventId: eventDeliveries.eventId,
      endpointId: eventDeliveries.endpointId,
    });
  if (stale.length > 0) {
    log("warn", "event_deliveries_relayed", { workspaceId, count: stale.length });
    await enqueueDeliveries(env, stale.map(deliveryMessage));
  }
  const next = await db
    .select({ at: min(eventDeliveries.nextAttemptAt) })
    .from(eventDeliveries)
    .where(pending)
    .get();
  return next?.at == null ? null : Math.max(next.at, now) + RELAY_GRACE_MS;
}
