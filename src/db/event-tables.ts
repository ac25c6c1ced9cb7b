/**
 * D1 tables of lifecycle events (docs/events.md): event endpoints, events, deliveries and their
 * attempts. Secrets only sealed; times are epoch milliseconds.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaceRowColumns } from "./schema";

/** Lifecycle events a customer's server can receive (docs/events.md). */
export const EVENT_TYPES = [
  "link.created",
  "conversation.started",
  "conversation.ended",
  "conversation.rated",
  "link.expired",
  "link.revoked",
  "conversation.analyzed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event endpoints (docs/events.md): signing secrets sealed, since signing needs them back. */
export const eventEndpoints = sqliteTable(
  "event_endpoints",
  {
    ...workspaceRowColumns(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<EventType[]>().notNull(),
    description: text("description"),
    status: text("status", { enum: ["enabled", "disabled"] }).notNull(),
    includeTranscript: integer("include_transcript", { mode: "boolean" }).notNull().default(false),
    secretSealed: text("secret_sealed").notNull(),
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    /** First failed attempt since the last success; 5 days of failures disable the endpoint. */
    failingSince: integer("failing_since"),
    /** Failed attempts in a row; 2 make the endpoint `failing` (docs/operations.md#incidents). */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** The last failed attempt's status (`HTTP 500`) or reason (`timeout`, `network`, …). */
    lastError: text("last_error"),
    /** Resend what failed in a failing period on its first success (docs/operations.md#incidents). */
    autoRecover: integer("auto_recover", { mode: "boolean" }).notNull().default(false),
    /** When the last period a success ended had started; written by that success alone. */
    lastIncidentSince: integer("last_incident_since"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("event_endpoints_workspace_created").on(t.workspaceId, t.createdAt),
    // Failing endpoints only: a success finds a healthy endpoint absent here and reads no row
    // (the attempt's `endRun`, docs/performance.md#counts-per-call).
    index("event_endpoints_failing").on(t.id).where(sql`failing_since IS NOT NULL`),
  ],
);
export type EventEndpoint = typeof eventEndpoints.$inferSelect;

/** Every event type a body may carry: the lifecycle events and `event.test` (docs/events.md). */
export type AnyEventType = EventType | "event.test";

/**
 * Events (docs/events.md#bodies), written with their state change only while an enabled endpoint
 * listens; one per link and type (the unique index), so a repeated write invents nothing.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    linkId: text("link_id"),
    type: text("type").$type<AnyEventType>().notNull(),
    /** The JSON body delivered (without a transcript, which is added per endpoint). */
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("events_link_type").on(t.linkId, t.type),
    // The retention sweep's order (docs/security.md#retention).
    index("events_workspace_created").on(t.workspaceId, t.createdAt),
  ],
);
export type StoredEvent = typeof events.$inferSelect;

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/**
 * One event on its way to one endpoint (docs/events.md#delivery); `step`: attempts since created or
 * resent; `nextAttemptAt`: when the queue should bring it next. Its last success is kept on the row
 * itself (`succeeded*`), so the common delivery, a first attempt that succeeds, writes no attempt
 * row; every other attempt is a `delivery_attempts` row (docs/performance.md#counts-per-call).
 */
export const eventDeliveries = sqliteTable(
  "event_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => eventEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    status: text("status", { enum: ["pending", "succeeded", "failed"] })
      .$type<DeliveryStatus>()
      .notNull(),
    attempts: integer("attempts").notNull().default(0),
    step: integer("step").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    /** Until when a consumer holds the delivery (`attemptDelivery`'s claim); in no index. */
    claimedUntil: integer("claimed_until"),
    /** The last successful attempt: when, the 2xx status, latency and first KiB of the answer. */
    succeededAt: integer("succeeded_at"),
    successStatus: integer("success_status"),
    successLatencyMs: integer("success_latency_ms"),
    successBody: text("success_body"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("event_deliveries_endpoint_created").on(t.endpointId, t.createdAt, t.id),
    index("event_deliveries_endpoint_status_created").on(t.endpointId, t.status, t.createdAt, t.id),
    // The relay's pending deliveries by due time, and the metrics' successes by time (a succeeded
    // row's nextAttemptAt is null): one index, changed once by a success (docs/operations.md#metrics).
    index("event_deliveries_workspace_status_next_succeeded").on(
      t.workspaceId,
      t.status,
      t.nextAttemptAt,
      t.succeededAt,
    ),
  ],
);
export type EventDelivery = typeof eventDeliveries.$inferSelect;

/** Each attempt of a delivery: when, the answer's status, latency and first KiB of its body. */
export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => eventDeliveries.id, { onDelete: "cascade" }),
    /** The delivery's endpoint, so an endpoint's attempts in a time range read by index. */
    endpointId: text("endpoint_id"),
    at: integer("at").notNull(),
    /** The receiver's status; null after a timeout or network error. */
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms").notNull(),
    responseBody: text("response_body").notNull(),
  },
  (t) => [
    index("delivery_attempts_delivery_at").on(t.deliveryId, t.at),
    // Incidents and metrics read an endpoint's attempts from the index alone (docs/operations.md).
    index("delivery_attempts_endpoint_at").on(t.endpointId, t.at, t.responseStatus, t.deliveryId),
  ],
);
export type DeliveryAttempt = typeof deliveryAttempts.$inferSelect;
