/** Event endpoint schemas of the management API (docs/events.md#event-endpoints). */
import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "../db/schema";

const EventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

const Url = z.string().min(1).max(2048).openapi({
  description: "https (http only to localhost where the Worker allows it); no credentials in it",
  example: "https://example.com/agent-edge/events",
});

export const CreateEventEndpointSchema = z
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
  })
  .openapi("CreateEventEndpoint");
export type CreateEventEndpoint = z.infer<typeof CreateEventEndpointSchema>;

export const UpdateEventEndpointSchema = z
  .strictObject({
    url: Url.optional(),
    events: z.array(EventTypeSchema).min(1).optional(),
    description: z.string().max(500).nullable().optional(),
    status: z.enum(["enabled", "disabled"]).optional(),
    includeTranscript: z.boolean().optional(),
  })
  .openapi("UpdateEventEndpoint");
export type UpdateEventEndpoint = z.infer<typeof UpdateEventEndpointSchema>;

export const EventEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(EventTypeSchema),
    description: z.string().nullable(),
    status: z.enum(["enabled", "disabled"]),
    includeTranscript: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("EventEndpoint");
export type EventEndpointView = z.infer<typeof EventEndpointSchema>;

export const EventEndpointWithSecretSchema = EventEndpointSchema.extend({
  secret: z.string().openapi({
    description: "`whsec_` + base64 of 32 random bytes; shown only in this answer",
  }),
}).openapi("EventEndpointWithSecret");
