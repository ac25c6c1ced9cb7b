/**
 * Failing endpoints as incidents (docs/operations.md#incidents): the run of failures is kept on the
 * endpoint's row by `recordAttempt`; failed deliveries are read from the attempts' index (a failed
 * attempt is always a row of its own: only a success is kept on its delivery's row).
 */
import { and, eq, inArray, ne, not, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "../db/database";
import { deliveryAttempts, type EventEndpoint, eventDeliveries } from "../db/event-tables";
import { linkLedger } from "../launch/ledger/client";
import type { AppBindings } from "../platform/env";
import { isoTime } from "../platform/ids";
import { log } from "../platform/log";
import { FAILING_AFTER, moveSuccesses } from "./attempts";
import { deliveryMessage, enqueueDeliveries } from "./outbox";
import { CLAIM_MS } from "./signing";

/** An endpoint's health as the API shows it (docs/operations.md#incidents). */
export type EndpointHealth = {
  status: "healthy" | "failing";
  /** The first failure of the current run (ISO), while failing. */
  since: string | null;
  /** The last failed attempt's status (`HTTP 500`) or reason (`timeout`, `network`, …). */
  lastError: string | null;
  /** Deliveries with a failed attempt since `since`. */
  failedDeliveries: number;
};

type HealthRow = Pick<EventEndpoint, "id" | "failingSince" | "consecutiveFailures" | "lastError">;

const isFailing = (row: HealthRow): row is HealthRow & { failingSince: number } =>
  row.failingSince !== null && row.consecutiveFailures >= FAILING_AFTER;

/** Not a 2xx answer (a timeout, a network error or a refusal has no status). */
const failedAttempt = sql`(${deliveryAttempts.responseStatus} IS NULL OR ${deliveryAttempts.responseStatus} NOT BETWEEN 200 AND 299)`;

/** The deliveries of an endpoint with a failed attempt in `[since, until)` (epoch ms). */
function failedIn(db: DrizzleD1Database, endpointId: string, since: number, until?: number) {
  const window: SQL[] = [
    eq(deliveryAttempts.endpointId, endpointId),
    sql`${deliveryAttempts.at} >= ${since}`,
    failedAttempt,
  ];
  if (until !== undefined) window.push(sql`${deliveryAttempts.at} < ${until}`);
  return db
    .selectDistinct({ id: deliveryAttempts.deliveryId })
    .from(deliveryAttempts)
    .where(and(...window));
}

/** The health of each endpoint, in order: one D1 round trip if any is failing, else none. */
export async function healthOf(
  db: DrizzleD1Database,
  rows: readonly HealthRow[],
): Promise<EndpointHealth[]> {
  const failing = rows.filter(isFailing);
  const counts = new Map<string, number>();
  if (failing.length > 0) {
    const queries = failing.map((row) =>
      db
        .select({ n: sql<number>`count(*)` })
        .from(failedIn(db, row.id, row.failingSince).as("failed")),
    );
    const results = await db.batch(queries as [(typeof queries)[0], ...typeof queries]);
    for (const [index, row] of failing.entries()) counts.set(row.id, results[index]?.[0]?.n ?? 0);
  }
  return rows.map((row) =>
    isFailing(row)
      ? {
          status: "failing",
          since: isoTime(row.failingSince),
          lastError: row.lastError,
          failedDeliveries: counts.get(row.id) ?? 0,
        }
      : { status: "healthy", since: null, lastError: null, failedDeliveries: 0 },
  );
}

/**
 * Marks deliveries due now, their retry schedule started afresh (any claim dropped); a success
 * their rows kept becomes an attempt row first, in the same transaction, so a pending delivery
 * keeps none (the metrics count a row's success while it is `succeeded`). Returns the rows changed.
 */
export async function restartDeliveries(
  db: DrizzleD1Database,
  now: number,
  where: SQL | undefined,
) {
  const [, rows] = await db.batch([
    moveSuccesses(db, where),
    db
      .update(eventDeliveries)
      .set({
        status: "pending",
        step: 0,
        nextAttemptAt: now,
        updatedAt: now,
        claimedUntil: null,
        succeededAt: null,
        successStatus: null,
        successLatencyMs: null,
        successBody: null,
      })
      .where(where)
      .returning(),
  ]);
  return rows;
}

/**
 * Resends, once each, the deliveries that failed in the incident `[since, until)` and have not
 * succeeded since (docs/operations.md#incidents); called by the one success that ended it. Logs
 * a failure, never throws.
 * @returns how many deliveries were sent again
 */
export async function recoverIncident(
  env: AppBindings,
  endpoint: Pick<EventEndpoint, "id" | "workspaceId">,
  since: number,
  until: number,
): Promise<number> {
  try {
    const db = database(env);
    // Before the write: should the queue never get the messages, the ledger's alarm relays them.
    await linkLedger(env, endpoint.workspaceId).watchDeliveries(endpoint.workspaceId);
    const rows = await restartDeliveries(
      db,
      until,
      and(
        eq(eventDeliveries.endpointId, endpoint.id),
        ne(eventDeliveries.status, "succeeded"),
        inArray(eventDeliveries.id, failedIn(db, endpoint.id, since, until)),
        // One being sent now by its own retry (claimed) is left to that attempt, so it is not
        // sent twice; should that attempt fail, it retries. Before migration 0016 a claim moved
        // the due time a claim's length past the update instead (a row may still say so).
        not(
          and(
            eq(eventDeliveries.status, "pending"),
            or(
              sql`COALESCE(${eventDeliveries.claimedUntil}, 0) > ${until}`,
              and(
                sql`${eventDeliveries.nextAttemptAt} > ${until}`,
                sql`${eventDeliveries.nextAttemptAt} = ${eventDeliveries.updatedAt} + ${CLAIM_MS}`,
              ),
            ),
          ) as SQL,
        ),
      ),
    );
    await enqueueDeliveries(env, rows.map(deliveryMessage));
    log("info", "event_endpoint_recovered", {
      endpointId: endpoint.id,
      since: isoTime(since),
      resent: rows.length,
    });
    return rows.length;
  } catch (error) {
    log("error", "event_endpoint_recovery_failed", { endpointId: endpoint.id, error });
    return 0;
  }
}
