/**
 * Attempting deliveries (docs/events.md#delivery): the queue consumer claims a due delivery, signs
 * and POSTs it, records the attempt and retries on the schedule; 5 days of failures disable.
 */
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { conversation } from "../conversations/conversation/client";
import { database } from "../db/database";
import {
  deliveryAttempts,
  type EventDelivery,
  type EventEndpoint,
  eventDeliveries,
  eventEndpoints,
  events,
  type StoredEvent,
} from "../db/event-tables";
import type { AppBindings } from "../platform/env";
import { isoTime, newId } from "../platform/ids";
import { log } from "../platform/log";
import { outboundPolicy } from "../platform/outbound";
import { keyring, openSecret } from "../platform/secret-box";
import type { DeliveryMessage } from "./contract";
import { endpointSecretAad } from "./endpoints";
import { attemptError, FAILING_AFTER, recoverIncident } from "./incidents";
import { type Attempt, CLAIM_MS, retryDelaySeconds, sendOnce } from "./signing";

/** Queue deliveries may arrive this much before the time they were delayed to (ms). */
const EARLY_MS = 2_000;
/** Failing this long without a single success disables an endpoint (ms). */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;
/** A failed consumer retries the message after (s): past its claim, so the delivery is due again. */
const CONSUMER_RETRY_S = Math.ceil((CLAIM_MS + EARLY_MS) / 1000) + 5;

/** The queue consumer: each message is one delivery's attempt; retries go back with their delay. */
export async function consumeDeliveries(
  batch: MessageBatch<DeliveryMessage>,
  env: AppBindings,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const retryIn = await attemptDelivery(env, message.body.deliveryId);
        if (retryIn === null) message.ack();
        else message.retry({ delaySeconds: retryIn });
      } catch (error) {
        log("error", "event_delivery_failed", { deliveryId: message.body.deliveryId, error });
        message.retry({ delaySeconds: CONSUMER_RETRY_S });
      }
    }),
  );
}

/** The signing secrets of an endpoint now: its own, then the rotated-out one for its 24 hours. */
export async function liveSecrets(env: AppBindings, endpoint: EventEndpoint, now: number) {
  const key = await keyring(env);
  const aad = endpointSecretAad(endpoint.workspaceId, endpoint.id);
  const secrets = [await openSecret(key, endpoint.secretSealed, aad)];
  if (endpoint.previousSecretSealed && (endpoint.previousSecretExpiresAt ?? 0) > now) {
    secrets.push(await openSecret(key, endpoint.previousSecretSealed, aad));
  }
  return secrets;
}

/** The body sent: the event, plus the messages on `conversation.ended` (docs/events.md#transcripts). */
async function bodyFor(env: AppBindings, event: StoredEvent, endpoint: EventEndpoint) {
  if (event.type !== "conversation.ended" || !endpoint.includeTranscript) return event.body;
  const parsed = JSON.parse(event.body) as {
    data: { conversation: { sessionId: string } | null; messages?: unknown };
  };
  const sessionId = parsed.data.conversation?.sessionId;
  if (!sessionId) return event.body;
  const messages = await conversation(env, sessionId).transcript();
  parsed.data.messages = messages.map((m) => ({ ...m, at: isoTime(m.at) }));
  return JSON.stringify(parsed);
}

/**
 * Attempts a delivery if due and still pending (a stale message does nothing); the success ending
 * an `autoRecover` endpoint's incident resends what failed in it (docs/operations.md#incidents).
 * @returns seconds until the next attempt, or null when the message is done with
 * @throws when D1, the secrets key or the conversation cannot be reached (the message is retried)
 */
export async function attemptDelivery(
  env: AppBindings,
  deliveryId: string,
  now = Date.now(),
  fetchImpl: typeof fetch = fetch,
): Promise<number | null> {
  const db = database(env);
  // One round trip: the claim, and what the attempt needs should the claim succeed.
  const ofDelivery = (column: "event_id" | "endpoint_id") =>
    sql`(SELECT ${sql.raw(column)} FROM event_deliveries WHERE id = ${deliveryId})`;
  const [claims, event, endpoint] = await db.batch([
    db
      .update(eventDeliveries)
      .set({ nextAttemptAt: now + CLAIM_MS, updatedAt: now })
      .where(
        and(
          eq(eventDeliveries.id, deliveryId),
          eq(eventDeliveries.status, "pending"),
          lte(eventDeliveries.nextAttemptAt, now + EARLY_MS),
        ),
      )
      .returning(),
    db
      .select()
      .from(events)
      .where(eq(events.id, ofDelivery("event_id"))),
    db
      .select()
      .from(eventEndpoints)
      .where(eq(eventEndpoints.id, ofDelivery("endpoint_id"))),
  ]);
  const claimed = claims[0];
  if (!claimed) return null;
  if (!event[0] || !endpoint[0] || endpoint[0].status !== "enabled") {
    // A disabled endpoint gets nothing; its deliveries can be recovered once it is enabled again.
    await setDelivery(db, claimed, { status: "failed", nextAttemptAt: null, updatedAt: now });
    return null;
  }
  const body = await bodyFor(env, event[0], endpoint[0]);
  const secrets = await liveSecrets(env, endpoint[0], now);
  const attempt = await sendOnce(endpoint[0].url, secrets, event[0].id, body, {
    policy: outboundPolicy(env),
    fetchImpl,
  });
  const recorded = await recordAttempt(db, claimed, endpoint[0], attempt, now);
  if (recorded.endedIncident?.autoRecover) {
    await recoverIncident(env, endpoint[0], recorded.endedIncident.since, now);
  }
  return recorded.retryIn;
}

/** What recording an attempt led to. */
export type Recorded = {
  /** Seconds until the next attempt, or null when this message is done with. */
  retryIn: number | null;
  /** When this success ended an incident: its start (epoch ms) and `autoRecover`; else null. */
  endedIncident: { since: number; autoRecover: boolean } | null;
};

/**
 * Records the attempt, moves the delivery on (only if still as claimed: a resend meanwhile owns
 * it) and keeps the endpoint's run of failures (docs/operations.md#incidents); a conditional update
 * lets only one of two concurrent successes learn it ended an incident.
 * @param delivery the row as claimed (its `updatedAt` and `attempts` identify the claim)
 */
export async function recordAttempt(
  db: DrizzleD1Database,
  delivery: EventDelivery,
  endpoint: Pick<EventEndpoint, "id">,
  attempt: Attempt,
  now: number,
  retries = true,
): Promise<Recorded> {
  const step = delivery.step + 1;
  const delay = attempt.ok || !retries ? null : retryDelaySeconds(step);
  const status = attempt.ok ? "succeeded" : delay === null ? "failed" : "pending";
  const [, moved, endpointNow] = await db.batch([
    // Only while the delivery exists: its endpoint may have been deleted during the attempt.
    db.insert(deliveryAttempts).select(
      db
        .select({
          id: sql<string>`${newId("att")}`.as("id"),
          deliveryId: eventDeliveries.id,
          endpointId: eventDeliveries.endpointId,
          at: sql<number>`${now}`.as("at"),
          responseStatus: sql<number | null>`${attempt.status}`.as("response_status"),
          latencyMs: sql<number>`${attempt.latencyMs}`.as("latency_ms"),
          responseBody: sql<string>`${attempt.response}`.as("response_body"),
        })
        .from(eventDeliveries)
        .where(eq(eventDeliveries.id, delivery.id)),
    ),
    db
      .update(eventDeliveries)
      .set({
        status,
        step,
        attempts: delivery.attempts + 1,
        nextAttemptAt: delay === null ? null : now + delay * 1000,
        updatedAt: now,
      })
      .where(
        and(
          eq(eventDeliveries.id, delivery.id),
          eq(eventDeliveries.updatedAt, delivery.updatedAt),
          eq(eventDeliveries.attempts, delivery.attempts),
        ),
      )
      .returning({ id: eventDeliveries.id }),
    attempt.ok ? endRun(db, endpoint.id) : countFailure(db, endpoint.id, attempt, now),
  ]);
  const row = endpointNow[0];
  if (!attempt.ok && row?.status === "disabled") {
    log("warn", "event_endpoint_disabled", { endpointId: endpoint.id, ...row });
  }
  const since = attempt.ok ? row?.lastIncidentSince : null;
  return {
    retryIn: moved.length === 1 ? delay : null,
    endedIncident:
      since === null || since === undefined
        ? null
        : { since, autoRecover: row?.autoRecover ?? false },
  };
}

const ENDPOINT_NOW = {
  status: eventEndpoints.status,
  failingSince: eventEndpoints.failingSince,
  lastIncidentSince: eventEndpoints.lastIncidentSince,
  autoRecover: eventEndpoints.autoRecover,
};

/**
 * A failed attempt: the run goes on (or starts now, in SQL, so attempts finishing together cannot
 * write back a stale start); 5 days of it disable the endpoint.
 */
function countFailure(db: DrizzleD1Database, endpointId: string, attempt: Attempt, now: number) {
  const since = sql`COALESCE(${eventEndpoints.failingSince}, ${now})`;
  return db
    .update(eventEndpoints)
    .set({
      failingSince: since,
      consecutiveFailures: sql`${eventEndpoints.consecutiveFailures} + 1`,
      lastError: attemptError(attempt),
      status: sql`CASE WHEN ${since} <= ${now - DISABLE_AFTER_MS} THEN 'disabled' ELSE ${eventEndpoints.status} END`,
    })
    .where(eq(eventEndpoints.id, endpointId))
    .returning(ENDPOINT_NOW);
}

/**
 * A success ends a run going (a healthy endpoint's writes nothing); `lastIncidentSince` gets its
 * start if it had made the endpoint failing (SET reads the old row), else null.
 */
function endRun(db: DrizzleD1Database, endpointId: string) {
  return db
    .update(eventEndpoints)
    .set({
      lastIncidentSince: sql`CASE WHEN ${eventEndpoints.consecutiveFailures} >= ${FAILING_AFTER} THEN ${eventEndpoints.failingSince} ELSE NULL END`,
      failingSince: null,
      consecutiveFailures: 0,
      lastError: null,
    })
    .where(and(eq(eventEndpoints.id, endpointId), isNotNull(eventEndpoints.failingSince)))
    .returning(ENDPOINT_NOW);
}

function setDelivery(
  db: DrizzleD1Database,
  delivery: Pick<EventDelivery, "id">,
  changes: Partial<EventDelivery>,
) {
  return db.update(eventDeliveries).set(changes).where(eq(eventDeliveries.id, delivery.id));
}
