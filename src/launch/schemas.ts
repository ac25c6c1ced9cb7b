/** Launch API schemas (docs/api/launch.md#operations): they validate requests and generate OpenAPI. */
import { z } from "@hono/zod-openapi";
import { listQuery, pageSchema } from "../platform/paging";

export const MIN_EXPIRES_IN_SECONDS = 300;
export const MAX_EXPIRES_IN_SECONDS = 7_776_000;
export const DEFAULT_EXPIRES_IN_SECONDS = 604_800;
/** Largest accepted request body, in bytes (docs/limits.md: 32 KB). */
export const MAX_LAUNCH_BODY_BYTES = 32_768;

/** Metadata limits (docs/api/launch.md#metadata): Stripe's shape, smaller. */
export const METADATA_LIMITS = { maxKeys: 20, maxKeyChars: 40, maxValueChars: 500 } as const;

/** The customer's own string pairs on a link; every problem is listed. */
export const MetadataSchema = z
  .record(z.string(), z.string().max(METADATA_LIMITS.maxValueChars))
  .superRefine(
    (metadata, ctx) => {
      const keys = Object.keys(metadata);
      if (keys.length > METADATA_LIMITS.maxKeys) {
        ctx.addIssue({
          code: "too_big",
          maximum: METADATA_LIMITS.maxKeys,
          origin: "object",
          inclusive: true,
          input: metadata,
          message: `At most ${METADATA_LIMITS.maxKeys} keys.`,
        });
      }
      for (const key of keys) {
        if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyChars) {
          ctx.addIssue({
            code: "too_big",
            maximum: METADATA_LIMITS.maxKeyChars,
            origin: "string",
            inclusive: true,
            input: key,
            path: [key],
            message: `A key has 1 to ${METADATA_LIMITS.maxKeyChars} characters.`,
          });
        }
      }
    }, // Also when a value was refused, so every problem is listed at once.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .openapi({
    description: `Your own key-value pairs: at most ${METADATA_LIMITS.maxKeys} keys of 1 to ${METADATA_LIMITS.maxKeyChars} characters, string values of at most ${METADATA_LIMITS.maxValueChars}. Never shown to the person or the agent.`,
    example: { orderId: "1042", crm: "cus_42" },
  });

export const CreateLaunchSchema = z
  .strictObject({
    flowId: z.string().min(1).max(64).openapi({ description: "Agent id", example: "agt_…" }),
    channelId: z
      .string()
      .min(1)
      .max(64)
      .openapi({ description: "Widget channel id", example: "ch_…" }),
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Values for the agent's Initial Parameters; strict, no conversion" }),
    participant: z
      .strictObject({
        name: z.string().max(200).optional().openapi({ description: "The person's name" }),
        externalId: z
          .string()
          .max(255)
          .optional()
          .openapi({ description: "Your own id for the person" }),
      })
      .optional(),
    globalTask: z
      .string()
      .max(4000)
      .optional()
      .openapi({ description: "Extra instruction for this one conversation" }),
    metadata: MetadataSchema.optional(),
    expiresInSeconds: z
      .number()
      .int()
      .min(MIN_EXPIRES_IN_SECONDS)
      .max(MAX_EXPIRES_IN_SECONDS)
      .optional()
      .openapi({
        description: "Seconds the link can be opened",
        default: DEFAULT_EXPIRES_IN_SECONDS,
      }),
  })
  .openapi("CreateLaunch");
export type CreateLaunch = z.infer<typeof CreateLaunchSchema>;

export const LinkStatusSchema = z
  .enum(["pending", "active", "ended", "expired", "revoked"])
  .openapi("LinkStatus");
export type LinkStatus = z.infer<typeof LinkStatusSchema>;

export const CreatedLaunchSchema = z
  .object({
    id: z.string().openapi({ example: "lnk_…" }),
    status: LinkStatusSchema,
    expiresAt: z.string().openapi({ example: "2026-11-27T10:00:00.000Z" }),
    token: z
      .string()
      .openapi({ description: "Returned only here; anyone holding it can open the conversation" }),
    url: z.string().openapi({ example: "https://launch.example.com/chat#launch=…" }),
    embedHtml: z.string(),
  })
  .openapi("CreatedLaunch");
export type CreatedLaunch = z.infer<typeof CreatedLaunchSchema>;

/** The analysis of one ended conversation (docs/api/launch.md#analysis). */
export const ConversationAnalysisSchema = z
  .object({
    status: z.enum(["completed", "failed"]).openapi({
      description: "failed: the brain failed on every try; summary and every field are null",
    }),
    summary: z.string().nullable().openapi({ description: "null when not asked for or failed" }),
    data: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable())
      .openapi({ description: "Every field by name; null when unknown or when its value failed" }),
    problems: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .openapi({ description: "Values that failed their field's type or options (then null)" }),
  })
  .openapi("ConversationAnalysis");

/**
 * A link's conversation with the fields of `shape`: null until the link is first opened, in the
 * launch look-up and in the members' link detail (docs/api/launch.md#operations).
 */
export const linkConversation = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object(shape).nullable().openapi({ description: "null until the link is first opened" });

export const LaunchSchema = z
  .object({
    id: z.string(),
    status: LinkStatusSchema,
    expiresAt: z.string(),
    flowId: z.string(),
    channelId: z.string(),
    createdAt: z.string(),
    participant: z.object({ name: z.string().nullable(), externalId: z.string().nullable() }),
    metadata: z.record(z.string(), z.string()),
    conversation: linkConversation({
      sessionId: z.string(),
      status: z.enum(["in-progress", "ended"]),
      startedAt: z.string(),
      endedAt: z.string().nullable(),
      analysis: ConversationAnalysisSchema.optional().openapi({
        description:
          "The ended conversation's analysis once ready (docs/api/launch.md#analysis); absent before, and for agents without analysis",
      }),
    }),
  })
  .openapi("Launch");
export type Launch = z.infer<typeof LaunchSchema>;

/** The `Idempotency-Key` header of a create (docs/api/launch.md#idempotent-requests). */
export const IdempotencyHeadersSchema = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7E]+$/, "Printable ASCII characters only.")
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description:
        "Makes the create safe to retry: the same key and body within 24 h give the first answer again, token included",
    }),
});

/** `GET /v1/widget/launches` filters (docs/api/launch.md#listing-links); unknown ones are refused. */
export const ListLaunchesQuerySchema = listQuery({
  externalId: z.string().min(1).max(255).optional(),
  status: LinkStatusSchema.optional(),
  flowId: z.string().min(1).max(64).optional(),
  createdAfter: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "ISO 8601; exclusive" }),
  createdBefore: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "ISO 8601; exclusive" }),
  preview: z.enum(["true", "false"]).optional().openapi({
    description:
      "`false`: leave out the dashboard's preview links (made by a member, external id `dashboard-preview:<memberId>`); `true`: only those; absent: every link",
  }),
});
export type ListLaunchesQuery = z.infer<typeof ListLaunchesQuerySchema>;

export const LaunchListSchema = pageSchema("LaunchList", LaunchSchema);
export type LaunchList = z.infer<typeof LaunchListSchema>;
