/**
 * Recording delivery attempts (docs/events.md#delivery, docs/operations.md#incidents): a delivery's
 * last success is kept on its own row, every other attempt is a `delivery_attempts` row, so the
 * common delivery (one attempt, a success) writes its row alone (docs/performance.md#counts-per-call).
 */
import { and, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "../db/database";
import {
  type DeliveryAttempt,
  type DeliveryStatus,
  deliveryAttempts,
  type EventDelivery,
  type EventEndpoint,
  eventDeliveries,
  eventEndpoints,
} from "../db/event-tables";
import { newId } from "../platform/ids";
import { log } from "../platform/log";
import { type Attempt, RETRY_SCHEDULE_S, retryDelaySeconds } from "./signing";

/** Failed attempts in a row that make an endpoint `failing`. */
export const FAILING_AFTER = 2;
/** Failing this long without a single success disables an endpoint (ms). */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;

/** What the delivery log says of a failed attempt: its status, or why there was none. */
export function attemptError(attempt: Attempt): string {
  return attempt.status === null ? attempt.response : `HTTP ${attempt.status}`;
}

/** What recording an attempt led to. */
export type Recorded = {
  /** Seconds until the next attempt, or null when this message is done with. */
  retryIn: number | null;
  /** When this success ended an incident: its start (epoch ms) and `autoRecover`; else null. */
  endedIncident: { since: number; autoRecover: boolean } | null;
};

/**
 * The delivery as claimed: its id and the claim's end, which names the claim. One attempted
 * without a claim (a test event, `claimedUntil` null) is named by its count of attempts instead.
 */
export type ClaimedDelivery = Pick<EventDelivery, "id" | "claimedUntil"> &
  Partial<Pick<EventDelivery, "attempts">>;

/**
 * Records the attempt, moves the delivery on (only if still as claimed: a resend meanwhile owns
 * it, and the attempt is then logged as a row of its own) and keeps the endpoint's run of failures
 * (docs/operations.md#incidents); a conditional update lets only one of two concurrent successes
 * learn it ended an incident. A claimed delivery is pending, and a pending one keeps no success on
 * its row (`restartDeliveries` moves it out), so a success overwrites none. The step and the count
 * of attempts move on in SQL, so the claim needs not read them (docs/performance.md#counts-per-call).
 */
export async function recordAttempt(
  env: { DB: D1Database },
  delivery: ClaimedDelivery,
  endpoint: Pick<EventEndpoint, "id">,
  attempt: Attempt,
  now: number,
  retries = true,
): Promise<Recorded> {
  const db = database(env);
  const failure = attempt.ok ? null : retries ? nextAttempt(now) : null;
  const move = db
    .update(eventDeliveries)
    .set({
      status: attempt.ok ? "succeeded" : (failure?.status ?? "failed"),
      step: sql`${eventDeliveries.step} + 1`,
      attempts: sql`${eventDeliveries.attempts} + 1`,
      nextAttemptAt: failure?.at ?? null,
      updatedAt: now,
      claimedUntil: null,
      ...(attempt.ok
        ? {
            succeededAt: now,
            successStatus: attempt.status,
            successLatencyMs: attempt.latencyMs,
            successBody: attempt.response,
          }
        : {}),
    })
    .where(
      and(
        eq(eventDeliveries.id, delivery.id),
        delivery.claimedUntil === null
          ? and(
              isNull(eventDeliveries.claimedUntil),
              eq(eventDeliveries.attempts, delivery.attempts ?? 0),
            )
          : eq(eventDeliveries.claimedUntil, delivery.claimedUntil),
      ),
    );
  if (attempt.ok) {
    // `changes` tells whether it moved: a RETURNING would count one more row read.
    const [moved, , ended] = await db.batch([
      move,
      endRun(db, endpoint.id),
      endedRun(db, endpoint.id),
    ]);
    // Overtaken by a resend: the answer is still logged, as an attempt row.
    if (moved.meta.changes === 0) await insertAttempt(db, delivery.id, attempt, now);
    const row = ended[0]?.ended ? (JSON.parse(ended[0].ended) as EndedRun) : null;
    return {
      retryIn: null,
      endedIncident:
        row?.since === null || row?.since === undefined
          ? null
          : { since: row.since, autoRecover: Boolean(row.autoRecover) },
    };
  }
  // Here the RETURNING's read is spent: a failure's next time is set in SQL, by the row's step.
  const [, moved, , endpointNow] = await db.batch([
    insertAttempt(db, delivery.id, attempt, now),
    move.returning({ nextAttemptAt: eventDeliveries.nextAttemptAt }),
    ...countFailure(db, endpoint.id, attempt, now),
  ]);
  const row = endpointNow[0];
  if (row?.status === "disabled") {
    log("warn", "event_endpoint_disabled", { endpointId: endpoint.id, ...row });
  }
  const next = moved[0]?.nextAttemptAt;
  return {
    retryIn: next === null || next === undefined ? null : (next - now) / 1000,
    endedIncident: null,
  };
}

/**
 * The delivery's status and next attempt after a failure, by its step (SQL, the row's value before
 * the update): each step's delay of the schedule, jittered now (`retryDelaySeconds`); past the
 * schedule, `failed` and none.
 */
function nextAttempt(now: number) {
  const steps = RETRY_SCHEDULE_S.map(
    (_, step) => sql`WHEN ${step} THEN ${now + (retryDelaySeconds(step + 1) ?? 0) * 1000}`,
  );
  return {
    status: sql<DeliveryStatus>`CASE WHEN ${eventDeliveries.step} < ${RETRY_SCHEDULE_S.length} THEN 'pending' ELSE 'failed' END`,
    at: sql<number | null>`CASE ${eventDeliveries.step} ${sql.join(steps, sql` `)} ELSE NULL END`,
  };
}

/** An attempt as a row of its own, only while the delivery exists (its endpoint may be deleted). */
function insertAttempt(db: DrizzleD1Database, deliveryId: string, attempt: Attempt, now: number) {
  return db.insert(deliveryAttempts).select(
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
      .where(eq(eventDeliveries.id, deliveryId)),
  );
}

/**
 * The success kept on the rows `where` picks, as attempt rows of their own: run before a change
 * that leaves those rows without it (a resend), so the log and the metrics keep every attempt.
 */
export function moveSuccesses(db: DrizzleD1Database, where: SQL | undefined) {
  return db.insert(deliveryAttempts).select(
    db
      .select({
        id: sql<string>`'att_' || lower(hex(randomblob(12)))`.as("id"),
        deliveryId: eventDeliveries.id,
        endpointId: eventDeliveries.endpointId,
        at: sql<number>`${eventDeliveries.succeededAt}`.as("at"),
        responseStatus: eventDeliveries.successStatus,
        latencyMs: sql<number>`coalesce(${eventDeliveries.successLatencyMs}, 0)`.as("latency_ms"),
        responseBody: sql<string>`coalesce(${eventDeliveries.successBody}, '')`.as("response_body"),
      })
      .from(eventDeliveries)
      .where(and(where, isNotNull(eventDeliveries.succeededAt))),
  );
}

/** A delivery's attempts, oldest first: its attempt rows and the success its row keeps. */
export function attemptsOf(
  delivery: Pick<
    EventDelivery,
    "id" | "succeededAt" | "successStatus" | "successLatencyMs" | "successBody"
  >,
  rows: readonly DeliveryAttempt[],
) {
  const own = rows.filter((row) => row.deliveryId === delivery.id);
  const all = own.map(({ at, responseStatus, latencyMs, responseBody }) => ({
    at,
    responseStatus,
    latencyMs,
    responseBody,
  }));
  if (delivery.succeededAt !== null) {
    all.push({
      at: delivery.succeededAt,
      responseStatus: delivery.successStatus,
      latencyMs: delivery.successLatencyMs ?? 0,
      responseBody: delivery.successBody ?? "",
    });
  }
  return all.sort((a, b) => a.at - b.at);
}

/** The endpoint as a failed attempt leaves it. */
const ENDPOINT_NOW = {
  status: eventEndpoints.status,
  failingSince: eventEndpoints.failingSince,
  lastIncidentSince: eventEndpoints.lastIncidentSince,
  autoRecover: eventEndpoints.autoRecover,
};

/**
 * A failed attempt, as two statements: the first starts a run (its start now, in SQL, so attempts
 * finishing together cannot write back a stale one) and puts the endpoint into the failing index;
 * the second, only if the first changed nothing, counts one more failure of the run going without
 * assigning its start, so the index entry is not written again. 5 days of a run disable the
 * endpoint (the second's RETURNING: a run that starts now cannot be 5 days old).
 */
function countFailure(db: DrizzleD1Database, endpointId: string, attempt: Attempt, now: number) {
  const lastError = attemptError(attempt);
  return [
    db
      .update(eventEndpoints)
      .set({ failingSince: now, consecutiveFailures: 1, lastError })
      .where(and(eq(eventEndpoints.id, endpointId), isNull(eventEndpoints.failingSince))),
    db
      .update(eventEndpoints)
      .set({
        consecutiveFailures: sql`${eventEndpoints.consecutiveFailures} + 1`,
        lastError,
        status: sql`CASE WHEN ${eventEndpoints.failingSince} <= ${now - DISABLE_AFTER_MS} THEN 'disabled' ELSE ${eventEndpoints.status} END`,
      })
      .where(and(eq(eventEndpoints.id, endpointId), sql`changes() = 0`))
      .returning(ENDPOINT_NOW),
  ] as const;
}

/**
 * A success ends a run going; `lastIncidentSince` gets its start if it had made the endpoint
 * failing (SET reads the old row), else null. A healthy endpoint's row is neither written nor read:
 * the endpoint is found through the partial index of failing ones (`event_endpoints_failing`),
 * where a healthy one has no entry (docs/performance.md#counts-per-call).
 */
function endRun(db: DrizzleD1Database, endpointId: string) {
  const failing = sql`(SELECT f.id FROM event_endpoints AS f INDEXED BY event_endpoints_failing
    WHERE f.id = ${endpointId} AND f.failing_since IS NOT NULL)`;
  return db
    .update(eventEndpoints)
    .set({
      lastIncidentSince: sql`CASE WHEN ${eventEndpoints.consecutiveFailures} >= ${FAILING_AFTER} THEN ${eventEndpoints.failingSince} ELSE NULL END`,
      failingSince: null,
      consecutiveFailures: 0,
      lastError: null,
    })
    .where(and(eq(eventEndpoints.id, failing), isNotNull(eventEndpoints.failingSince)));
}

/** The run `endRun` ended, as JSON: read only when it changed the endpoint (else nothing is read). */
type EndedRun = { since: number | null; autoRecover: number };

function endedRun(db: DrizzleD1Database, endpointId: string) {
  return db
    .select({
      ended: sql<string | null>`(SELECT json_object('since', last_incident_since,
        'autoRecover', auto_recover) FROM event_endpoints WHERE id = ${endpointId})`,
    })
    .from(sql`(SELECT 1)`)
    .where(sql`changes() > 0`);
}
