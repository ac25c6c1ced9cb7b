/** Schemas of the browser chat API (docs/api/conversations.md). */
import { z } from "@hono/zod-openapi";
import { pathParam } from "../platform/openapi";
import { CHANNEL_ID } from "./embedding";
import type { Block } from "./protocol";

/** Largest body of `POST /v1/chat/sessions`, in bytes. */
export const MAX_CHAT_BODY_BYTES = 4_096;

/** The link's token a chat was opened with, as the browser sends it back. */
const LinkToken = z
  .string()
  .min(1)
  .max(200)
  .openapi({ description: "The link's token (from `#launch=`)" });

export const OpenSessionSchema = z
  .strictObject({
    token: LinkToken,
    channelId: z.string().regex(CHANNEL_ID).optional().openapi({
      description:
        "The widget channel whose embedded chat opens the link (`/chat/embed/{channelId}`): a link of another channel is 404 not_found",
    }),
  })
  .openapi("OpenChatSession");

export const ChannelIdParamSchema = z.object({
  channelId: pathParam("channelId", z.string().regex(CHANNEL_ID)).openapi({
    example: "ch_3Yk9WqT2mB7xLp4RzN8vHc",
  }),
});

export const EmbeddingQuerySchema = z.object({
  origin: z.string().max(300).openapi({
    description: "The origin of the page that would show the chat, e.g. https://shop.example.com",
  }),
});

export const EmbeddingSchema = z
  .object({
    allowed: z.boolean().openapi({
      description:
        "Whether the channel's allowed origins (or the dashboard's) include `origin`; always true when the channel allows any site",
    }),
  })
  .openapi("ChatEmbedding");

/** A chat message (docs/api/conversations.md); the management API's link look-up shows them too. */
export const MessageSchema = z.object({
  id: z.string(),
  role: z.enum(["agent", "person"]),
  text: z.string(),
  at: z.string(),
  interrupted: z.boolean().optional().openapi({
    description:
      "Present (true) on an agent reply cut off midway: the text is what had arrived, kept whole",
  }),
  source: z.literal("workflow").optional().openapi({
    description: "Present on an agent message a workflow wrote (send_message, ask_person)",
  }),
  question: z
    .object({
      id: z.string(),
      options: z.array(z.object({ label: z.string(), value: z.string() })),
      allowText: z.boolean(),
      closed: z.boolean().optional(),
    })
    .optional()
    .openapi({
      description:
        "ask_person's question: options shown as buttons, a text answer when `allowText`; `closed` once answered or when the conversation ended",
    }),
  answerTo: z.string().optional().openapi({
    description: "On the person's answer to a question: that question's id",
  }),
});

const SpanSchema = z
  .object({
    text: z.string(),
    strong: z.boolean().optional(),
    em: z.boolean().optional(),
    code: z.boolean().optional(),
    href: z.string().optional().openapi({ description: "An http(s) or mailto URL" }),
  })
  .openapi("ChatSpan");

const BlockSchema: z.ZodType<Block> = z
  .union([
    z.object({ type: z.literal("p"), spans: z.array(SpanSchema) }),
    z.object({
      type: z.literal("list"),
      ordered: z.boolean(),
      start: z.number().int(),
      get items() {
        return z.array(z.array(BlockSchema));
      },
    }),
  ])
  .openapi("ChatBlock", { description: "A paragraph, or a list whose items are blocks" });

/**
 * A message of the chat session, an agent's also as Markdown blocks (docs/chat.md#formatting);
 * the management API's link look-up shows the same (docs/api/manage.md#links).
 */
export const ChatMessageSchema = MessageSchema.extend({
  blocks: z.array(BlockSchema).optional().openapi({
    description: "Agent messages only: the text read as a safe subset of Markdown",
  }),
});

export const ChatSessionSchema = z
  .object({
    sessionId: z.string(),
    status: z.enum(["in-progress", "ended"]),
    agent: z.object({ name: z.string(), mode: z.enum(["initiator", "responder"]) }),
    participant: z.object({ name: z.string().nullable() }),
    messages: z.array(ChatMessageSchema),
    socketUrl: z.string().optional().openapi({
      description: "WebSocket with a one-time ticket (valid 60 s); absent once the chat ended",
    }),
    limits: z.object({
      maxMessageChars: z.number(),
      messagesPerMinute: z.number(),
      sessionOpensPerMinute: z.number(),
    }),
    rating: z
      .object({
        enabled: z.boolean().openapi({
          description:
            "Whether the page asks for a rating once the conversation ends (the channel's `rating`)",
        }),
        score: z.number().int().nullable().openapi({ description: "1 to 5; null until rated" }),
        ratedAt: z.string().nullable(),
      })
      .openapi({ description: "The rating after the end (docs/api/conversations.md#rating)" }),
  })
  .openapi("ChatSession");

export type ChatSession = z.infer<typeof ChatSessionSchema>;

export const SessionIdParamSchema = z.object({
  sessionId: pathParam("sessionId", z.string().regex(/^ses_[0-9A-Za-z]{22}$/)),
});

/** Longest rating comment, in characters (docs/limits.md#chat). */
export const MAX_RATING_COMMENT_CHARS = 1_000;
/** Largest body of `POST /v1/chat/rating`, in bytes: a whole comment of 4-byte characters fits. */
export const MAX_RATING_BODY_BYTES = 8_192;

export const RateConversationSchema = z
  .strictObject({
    token: LinkToken,
    score: z.number().int().min(1).max(5).openapi({ description: "1 (bad) to 5 (very good)" }),
    comment: z
      .string()
      .max(MAX_RATING_COMMENT_CHARS)
      .optional()
      .openapi({
        description: `At most ${MAX_RATING_COMMENT_CHARS} characters; kept trimmed, blank as none`,
      }),
  })
  .openapi("RateConversation");

export type RateConversation = z.infer<typeof RateConversationSchema>;

/** A kept rating (docs/api/conversations.md#rating); `conversation.rated` carries the same. */
export const RatingSchema = z
  .object({
    score: z.number().int().openapi({ description: "1 to 5" }),
    comment: z.string().nullable(),
    ratedAt: z.string(),
  })
  .openapi("ConversationRating");

export type Rating = z.infer<typeof RatingSchema>;
