/** Schemas of an agent's widget channels (docs/api/manage.md#agents-and-channels). */
import { z } from "@hono/zod-openapi";
import {
  ALLOWED_ORIGIN_RULE,
  canonicalOrigin,
  MAX_ALLOWED_ORIGINS,
} from "../conversations/embedding";
import { once } from "../platform/once";
import { pathId } from "../platform/openapi";

/**
 * The channel schemas, built on first use: in the Worker only the management API needs them. The
 * dashboard's channel form checks allowed sites by the same rule (`canonicalOrigin`) without them.
 */
export const channelSchemas = once(() => {
  /** The path of one channel: the agent and its channel. */
  const ChannelParamsSchema = z.object({
    id: pathId("id").openapi({ description: "Agent id" }),
    channelId: pathId("channelId").openapi({ description: "Widget channel id" }),
  });

  const ChannelName = z.string().trim().min(1).max(200);

  const AllowedOrigins = z
    .array(
      z
        .string()
        .max(300)
        .refine((value) => canonicalOrigin(value) !== null, ALLOWED_ORIGIN_RULE),
    )
    .max(MAX_ALLOWED_ORIGINS)
    .openapi({
      description: `The sites whose pages may embed the channel's chat: origins such as https://shop.example.com (a leading *. allows subdomains), at most ${MAX_ALLOWED_ORIGINS}; empty for any site. Stored lower-case, without a default port or trailing slash, each once.`,
      example: ["https://shop.example.com", "https://*.example.org"],
    });

  const Rating = z.boolean().openapi({
    description:
      "Whether the chat asks the person to rate the conversation (1 to 5 and a comment) when it ends (docs/api/conversations.md#rating)",
  });

  const CreateChannelSchema = z
    .strictObject({
      type: z.literal("widget"),
      name: ChannelName,
      allowedOrigins: AllowedOrigins.optional(),
      rating: Rating.optional().openapi({ default: true }),
    })
    .openapi("CreateChannel");

  const UpdateChannelSchema = z
    .strictObject({ name: ChannelName, allowedOrigins: AllowedOrigins, rating: Rating })
    .partial()
    .openapi("UpdateChannel");

  const ChannelSchema = z
    .object({
      id: z.string(),
      agentId: z.string(),
      type: z.literal("widget"),
      name: z.string(),
      allowedOrigins: z.array(z.string()).openapi({
        description:
          "The sites whose pages may embed the chat (docs/widget.md#allowed-sites); empty for any",
      }),
      rating: Rating,
      snippet: z.string().openapi({
        description:
          "A template of the embed tag: the flow and channel ids, and {{LAUNCH_TOKEN}} in data-launch where the token of a link (POST /v1/widget/launches) goes",
      }),
      createdAt: z.string(),
    })
    .openapi("Channel");

  return {
    ChannelParamsSchema,
    CreateChannelSchema,
    UpdateChannelSchema,
    ChannelSchema,
  };
});

/** The types of the schemas `channelSchemas` builds, by name. */
export type ChannelSchemas = ReturnType<typeof channelSchemas>;

export type CreateChannel = z.infer<ChannelSchemas["CreateChannelSchema"]>;

export type UpdateChannel = z.infer<ChannelSchemas["UpdateChannelSchema"]>;

export type ChannelView = z.infer<ChannelSchemas["ChannelSchema"]>;
