/** Event endpoint schemas of the management API (docs/events.md#event-endpoints). */
import { z } from "@hono/zod-openapi";
import { END_REASONS } from "../conversations/conversation/contract";
import { EVENT_TYPES } from "../db/event-tables";
import { ConversationAnalysisSchema, LaunchSchema } from "../launch";
import { once } from "../platform/once";
import { listQuery, pageSchema } from "../platform/paging";

/**
 * The event endpoints' schemas, built on first use: in the Worker only the management API needs
 * them, and it is built on its first request (src/routes.ts).
 */
export const eventSchemas = once(() => {
  const EventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

  const Url = z.string().min(1).max(2048).openapi({
    description: "https (http only to localhost where the Worker allows it); no credentials in it",
    example: "https://example.com/agent-edge/events",
  });

  const AutoRecover = z.boolean().openapi({
    description:
      "Resend, once each, the deliveries that failed while the endpoint was failing, on its first success (default false; docs/operations.md#incidents)",
  });

  const CreateEventEndpointSchema = z
    .strictObject({
      url: Url,
      events: z
        .array(EventTypeSchema)
        .min(1)
        .optional()
        .openapi({ description: "Default: every event type" }),
      description: z.string().max(500).optional(),
      includeTranscript: z
        .boolean()
        .optional()
        .openapi({ description: "Add the messages to conversation.ended (default false)" }),
      autoRecover: AutoRecover.optional(),
    })
    .openapi("CreateEventEndpoint");

  const UpdateEventEndpointSchema = z
    .strictObject({
      url: Url.optional(),
      events: z.array(EventTypeSchema).min(1).optional(),
      description: z.string().max(500).nullable().optional(),
      status: z.enum(["enabled", "disabled"]).optional(),
      includeTranscript: z.boolean().optional(),
      autoRecover: AutoRecover.optional(),
    })
    .openapi("UpdateEventEndpoint");

  const EndpointHealthSchema = z
    .object({
      status: z.enum(["healthy", "failing"]).openapi({
        description: "`failing` from the second failed attempt in a row; `healthy` after a success",
      }),
      since: z
        .string()
        .nullable()
        .openapi({ description: "The first failure of the current run; null when healthy" }),
      lastError: z.string().nullable().openapi({
        description:
          "The last failed attempt's status (`HTTP 500`) or reason (`timeout`, `network`, `destination_not_allowed: …`); null when healthy",
      }),
      failedDeliveries: z
        .number()
        .int()
        .openapi({ description: "Deliveries with a failed attempt since `since`; 0 when healthy" }),
    })
    .openapi("EndpointHealth");

  const EventEndpointSchema = z
    .object({
      id: z.string(),
      url: z.string(),
      events: z.array(EventTypeSchema),
      description: z.string().nullable(),
      status: z.enum(["enabled", "disabled"]),
      includeTranscript: z.boolean(),
      autoRecover: z.boolean(),
      health: EndpointHealthSchema,
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .openapi("EventEndpoint");

  const EventEndpointWithSecretSchema = EventEndpointSchema.extend({
    secret: z.string().openapi({
      description: "`whsec_` + base64 of 32 random bytes; shown only in this answer",
    }),
  }).openapi("EventEndpointWithSecret");

  const DeliveryAttemptSchema = z
    .object({
      at: z.string(),
      responseStatus: z
        .number()
        .int()
        .nullable()
        .openapi({ description: "null: no answer (timeout after 15 s, or a network error)" }),
      latencyMs: z.number().int(),
      responseBody: z
        .string()
        .openapi({ description: "The first KiB of the answer, or the error" }),
    })
    .openapi("DeliveryAttempt");

  const DeliverySchema = z
    .object({
      id: z.string(),
      eventId: z.string(),
      eventType: z.string(),
      status: z.enum(["pending", "succeeded", "failed"]),
      attempts: z.array(DeliveryAttemptSchema).openapi({ description: "Oldest first" }),
      nextAttemptAt: z.string().nullable(),
      createdAt: z.string(),
    })
    .openapi("Delivery");

  const DeliveryListSchema = pageSchema("DeliveryList", DeliverySchema);

  const ListDeliveriesQuerySchema = listQuery({
    status: z.enum(["pending", "succeeded", "failed"]).optional(),
  });

  const EventEndpointListSchema = pageSchema("EventEndpointList", EventEndpointSchema);

  const RecoverSchema = z
    .strictObject({
      since: z.iso.datetime({ offset: true }).openapi({
        description: "Resend every failed delivery created at or after this time",
        example: "2026-11-20T00:00:00Z",
      }),
    })
    .openapi("RecoverDeliveries");

  const RecoveredSchema = z
    .object({ recovered: z.number().int().openapi({ description: "Deliveries sent again" }) })
    .openapi("RecoveredDeliveries");

  /** The body of a lifecycle event (docs/events.md#bodies); what `verifyEvent` of the SDK returns. */
  const LifecycleEventSchema = z
    .object({
      id: z.string().openapi({ description: "`evt_…`; also the `webhook-id` header" }),
      type: EventTypeSchema,
      createdAt: z.string(),
      data: z.object({
        link: LaunchSchema.omit({ conversation: true }),
        conversation: LaunchSchema.shape.conversation,
        reason: z.enum(END_REASONS).optional().openapi({ description: "conversation.ended only" }),
        analysis: ConversationAnalysisSchema.optional().openapi({
          description: "conversation.analyzed only",
        }),
        messages: z
          .array(
            z.object({
              id: z.string(),
              role: z.enum(["agent", "person"]),
              text: z.string(),
              at: z.string(),
            }),
          )
          .optional()
          .openapi({ description: "conversation.ended to an endpoint with includeTranscript" }),
      }),
    })
    .openapi("LifecycleEvent");

  /** The body of `event.test`. */
  const TestEventSchema = z
    .object({
      id: z.string(),
      type: z.literal("event.test"),
      createdAt: z.string(),
      data: z.object({ endpointId: z.string(), message: z.string() }),
    })
    .openapi("TestEvent");

  const EventSchema = z.union([LifecycleEventSchema, TestEventSchema]).openapi("Event");

  return {
    CreateEventEndpointSchema,
    UpdateEventEndpointSchema,
    EventEndpointSchema,
    EventEndpointWithSecretSchema,
    EventEndpointListSchema,
    DeliveryAttemptSchema,
    DeliverySchema,
    DeliveryListSchema,
    ListDeliveriesQuerySchema,
    RecoverSchema,
    RecoveredSchema,
    LifecycleEventSchema,
    TestEventSchema,
    EventSchema,
  };
});

/** The types of the schemas `eventSchemas` builds, by name. */
export type EventSchemas = ReturnType<typeof eventSchemas>;

export type CreateEventEndpoint = z.infer<EventSchemas["CreateEventEndpointSchema"]>;

export type UpdateEventEndpoint = z.infer<EventSchemas["UpdateEventEndpointSchema"]>;

export type EventEndpointView = z.infer<EventSchemas["EventEndpointSchema"]>;

export type DeliveryView = z.infer<EventSchemas["DeliverySchema"]>;

export type ListDeliveriesQuery = z.infer<EventSchemas["ListDeliveriesQuerySchema"]>;
