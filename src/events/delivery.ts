/**
 * Attempting deliveries (docs/events.md#delivery): the queue consumer claims a due delivery, signs
 * and POSTs it, records the attempt and retries on the schedule; 5 days of failures disable.
 */
import { and, eq, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { conversation } from "../conversations/conversation/client";
import { database } from "../db/database";
import { type EventEndpoint, eventDeliveries, type StoredEvent } from "../db/event-tables";
import type { AppBindings } from "../platform/env";
import { isoTime } from "../platform/ids";
import { log } from "../platform/log";
import { outboundPolicy } from "../platform/outbound";
import { keyring, openSecret } from "../platform/secret-box";
import { type ClaimedDelivery, recordAttempt } from "./attempts";
import type { DeliveryMessage } from "./contract";
import { endpointSecretAad } from "./endpoints";
import { recoverIncident } from "./incidents";
import { CLAIM_MS, sendOnce } from "./signing";

/** Queue deliveries may arrive this much before the time they were delayed to (ms). */
const EARLY_MS = 2_000;
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
        const retryIn = await attemptDelivery(env, message.body);
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
export async function liveSecrets(
  env: AppBindings,
  endpoint: Pick<
    EventEndpoint,
    "id" | "workspaceId" | "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt"
  >,
  now: number,
) {
  const key = await keyring(env);
  const aad = endpointSecretAad(endpoint.workspaceId, endpoint.id);
  const secrets = [await openSecret(key, endpoint.secretSealed, aad)];
  if (endpoint.previousSecretSealed && (endpoint.previousSecretExpiresAt ?? 0) > now) {
    secrets.push(await openSecret(key, endpoint.previousSecretSealed, aad));
  }
  return secrets;
}

/** The body sent: the event, plus the messages on `conversation.ended` (docs/events.md#transcripts). */
async function bodyFor(
  env: AppBindings,
  event: Pick<StoredEvent, "type" | "body">,
  endpoint: Pick<EventEndpoint, "includeTranscript">,
) {
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

/** The endpoint as the claim reads it: what an attempt needs (no other column is read). */
type AttemptEndpoint = Pick<
  EventEndpoint,
  | "id"
  | "workspaceId"
  | "url"
  | "status"
  | "includeTranscript"
  | "secretSealed"
  | "previousSecretSealed"
  | "previousSecretExpiresAt"
>;

/**
 * What an attempt needs, read in the claim's batch only if the claim (the statement before) changed
 * its row: `changes()` is 0 otherwise, and the row-less SELECT then reads nothing. The event and the
 * endpoint are read by the ids the message carries (a message without them reads them through the
 * delivery's row, one read more each).
 */
function claimedRows(db: DrizzleD1Database, message: DeliveryMessage) {
  const ofDelivery = (column: SQL) =>
    sql`(SELECT ${column} FROM event_deliveries WHERE id = ${message.deliveryId})`;
  const eventId = message.eventId ?? ofDelivery(sql.raw("event_id"));
  const endpointId = message.endpointId ?? ofDelivery(sql.raw("endpoint_id"));
  return db
    .select({
      event: sql<string | null>`(SELECT json_object('id', id, 'type', type, 'body', body)
        FROM events WHERE id = ${eventId})`,
      endpoint: sql<string | null>`(SELECT json_object('id', id, 'workspaceId', workspace_id,
        'url', url, 'status', status, 'includeTranscript', include_transcript,
        'secretSealed', secret_sealed, 'previousSecretSealed', previous_secret_sealed,
        'previousSecretExpiresAt', previous_secret_expires_at)
        FROM event_endpoints WHERE id = ${endpointId})`,
    })
    .from(sql`(SELECT 1)`)
    .where(sql`changes() > 0`);
}

/**
 * Attempts a delivery if due and still pending (a stale message does nothing); the success ending
 * an `autoRecover` endpoint's incident resends what failed in it (docs/operations.md#incidents).
 * @param message the queue's message (a delivery id alone: one sent before messages carried ids)
 * @returns seconds until the next attempt, or null when the message is done with
 * @throws when D1, the secrets key or the conversation cannot be reached (the message is retried)
 */
export async function attemptDelivery(
  env: AppBindings,
  message: DeliveryMessage | string,
  now = Date.now(),
  fetchImpl: typeof fetch = fetch,
): Promise<number | null> {
  const carried = typeof message === "string" ? { deliveryId: message } : message;
  const db = database(env);
  const claimed: ClaimedDelivery = { id: carried.deliveryId, claimedUntil: now + CLAIM_MS };
  // One batch: the claim (a column in no index, so one row written) and, should it succeed, what
  // the attempt needs (docs/performance.md#counts-per-call).
  const [claim, read] = await db.batch([
    db
      .update(eventDeliveries)
      .set({ claimedUntil: claimed.claimedUntil })
      .where(
        and(
          eq(eventDeliveries.id, carried.deliveryId),
          carried.eventId === undefined ? undefined : eq(eventDeliveries.eventId, carried.eventId),
          carried.endpointId === undefined
            ? undefined
            : eq(eventDeliveries.endpointId, carried.endpointId),
          eq(eventDeliveries.status, "pending"),
          lte(eventDeliveries.nextAttemptAt, now + EARLY_MS),
          or(isNull(eventDeliveries.claimedUntil), lte(eventDeliveries.claimedUntil, now)),
        ),
      ),
    claimedRows(db, carried),
  ]);
  if (claim.meta.changes === 0) return null;
  const [rows] = read;
  // The read returns its one row whenever the claim changed a row: none means it did not run as
  // the claim's next statement, so the message is retried (after the claim ends) rather than the
  // delivery failed for a missing event.
  if (!rows) throw new Error("event delivery: the claim's read returned no row");
  const event = rows.event
    ? (JSON.parse(rows.event) as Pick<StoredEvent, "id" | "type" | "body">)
    : null;
  const found = rows.endpoint ? (JSON.parse(rows.endpoint) as AttemptEndpoint) : null;
  if (!event || !found || found.status !== "enabled") {
    // A disabled endpoint gets nothing; its deliveries can be recovered once it is enabled again.
    await db
      .update(eventDeliveries)
      .set({ status: "failed", nextAttemptAt: null, claimedUntil: null, updatedAt: now })
      .where(eq(eventDeliveries.id, claimed.id));
    return null;
  }
  const endpoint = { ...found, includeTranscript: Boolean(found.includeTranscript) };
  const body = await bodyFor(env, event, endpoint);
  const secrets = await liveSecrets(env, endpoint, now);
  const attempt = await sendOnce(endpoint.url, secrets, event.id, body, {
    policy: outboundPolicy(env),
    fetchImpl,
  });
  const recorded = await recordAttempt(env, claimed, endpoint, attempt, now);
  if (recorded.endedIncident?.autoRecover) {
    await recoverIncident(env, endpoint, recorded.endedIncident.since, now);
  }
  return recorded.retryIn;
}
