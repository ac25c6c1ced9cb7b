/**
 * The chat socket protocol, shared by the page and the Conversation object
 * (docs/api/conversations.md#socket-protocol): JSON text frames, ISO 8601 times; `zod/mini` for
 * a small bundle.
 */
import * as z from "zod/mini";

/** Documented limits of a conversation (docs/limits.md#chat). */
export const CHAT_LIMITS = {
  /** Characters of one message, after trimming. */
  maxMessageChars: 2_000,
  /** Person messages accepted in any 60 s window of one conversation. */
  messagesPerMinute: 20,
  /** `POST /v1/chat/sessions` answers for one link in any 60 s window; then 429 rate_limited. */
  sessionOpensPerMinute: 30,
} as const;

/** How long one reply may take before `reply_failed` (`timeout`) (docs/api/conversations.md#replies). */
export const REPLY_TIMEOUT_MS = 30_000;

/** A conversation with no message for this long ends (docs/api/conversations.md#lifecycle). */
export const IDLE_TIMEOUT_MS = 30 * 60_000;

/** Frames larger than this are refused before parsing (UTF-16 units). */
export const MAX_FRAME_CHARS = 16_384;

/** Close codes the server uses; the page switches to the matching state. */
export const CLOSE_CODES = { revoked: 4403, ended: 4410, expired: 4411 } as const;

/** A run of an agent message's text with its marks (docs/chat.md#formatting). */
export const SpanSchema = z.object({
  text: z.string(),
  strong: z.optional(z.boolean()),
  em: z.optional(z.boolean()),
  code: z.optional(z.boolean()),
  /** An http(s) or mailto URL; the page checks it again before linking. */
  href: z.optional(z.string()),
});
export type Span = z.infer<typeof SpanSchema>;

/** A paragraph, or a list whose items are blocks again (nested lists). */
export type Block =
  | { type: "p"; spans: Span[] }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] };

export const BlockSchema: z.ZodMiniType<Block> = z.union([
  z.object({ type: z.literal("p"), spans: z.array(SpanSchema) }),
  z.object({
    type: z.literal("list"),
    ordered: z.boolean(),
    start: z.number(),
    get items() {
      return z.array(z.array(BlockSchema));
    },
  }),
]);

/** An option of a workflow's question: the button shows `label`, the answer sends `value`. */
export const QuestionOptionSchema = z.object({ label: z.string(), value: z.string() });

/**
 * A workflow's question on an agent message (docs/chat.md#questions): options as buttons, a text
 * answer when `allowText`; `closed` once answered, or when its conversation or link ended.
 */
export const WireQuestionSchema = z.object({
  id: z.string(),
  options: z.array(QuestionOptionSchema),
  allowText: z.boolean(),
  closed: z.optional(z.boolean()),
});
/** A question as the page sees it. */
export type WireQuestion = z.infer<typeof WireQuestionSchema>;

export const WireMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["agent", "person"]),
  text: z.string(),
  at: z.string(),
  /** An agent message's text read as Markdown; absent for the person's, which stay plain text. */
  blocks: z.optional(z.array(BlockSchema)),
  /** The reply was cut off midway: `text` is what had arrived (docs/chat.md#replies). */
  interrupted: z.optional(z.boolean()),
  /** Written by a workflow (send_message, ask_person), not by the agent's brain. */
  source: z.optional(z.literal("workflow")),
  question: z.optional(WireQuestionSchema),
  /** The person's answer to this question (the id), not a message the agent replies to. */
  answerTo: z.optional(z.string()),
});
/** A message as the page sees it. */
export type WireMessage = z.infer<typeof WireMessageSchema>;

/**
 * What the page sends. Both frame unions are plain unions: `discriminatedUnion` would add about
 * 0.5 KB gzip to the chat page's script (docs/chat.md#assets-and-caching), for no gain on a few
 * small options; the frames are read the same.
 */
export const ClientFrameSchema = z.union([
  z.object({ type: z.literal("message"), text: z.string() }),
  z.object({ type: z.literal("end") }),
  z.object({ type: z.literal("retry") }),
  // The person's answer to a workflow's question (docs/chat.md#questions).
  z.object({ type: z.literal("answer"), questionId: z.string(), value: z.string() }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** Codes of `error` frames (docs/errors.md#chat-socket). */
export const SocketErrorCodeSchema = z.enum([
  "invalid_message",
  "message_too_long",
  "rate_limited",
  "conversation_ended",
  "reply_failed",
  "invalid_request",
  "question_closed",
]);
export type SocketErrorCode = z.infer<typeof SocketErrorCodeSchema>;

/** What the server sends; a plain union as {@link ClientFrameSchema}. */
export const ServerFrameSchema = z.union([
  z.object({ type: z.literal("message"), message: WireMessageSchema }),
  // Continues the draft of message `id`, replaced by its `message` (docs/api/conversations.md#replies).
  z.object({ type: z.literal("delta"), id: z.string(), text: z.string() }),
  z.object({ type: z.literal("typing"), active: z.boolean() }),
  z.object({ type: z.literal("ended") }),
  z.object({ type: z.literal("revoked") }),
  z.object({ type: z.literal("expired") }),
  z.object({
    type: z.literal("error"),
    error: z.object({
      code: SocketErrorCodeSchema,
      message: z.string(),
      details: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
    }),
  }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** Reads a frame the page sent: the frame, or the message of an `invalid_message` error. */
export function parseClientFrame(data: string | ArrayBuffer): ClientFrame | string {
  if (typeof data !== "string") return "Frames are JSON text.";
  if (data.length > MAX_FRAME_CHARS) return `A frame has at most ${MAX_FRAME_CHARS} characters.`;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return "The frame is not valid JSON.";
  }
  const frame = ClientFrameSchema.safeParse(value);
  return frame.success
    ? frame.data
    : 'Send {"type":"message","text":"..."}, {"type":"answer","questionId":"...","value":"..."}, {"type":"retry"} or {"type":"end"}.';
}

/** Reads a frame the server sent; null for anything that is not one. */
export function parseServerFrame(data: string): ServerFrame | null {
  try {
    const frame = ServerFrameSchema.safeParse(JSON.parse(data));
    return frame.success ? frame.data : null;
  } catch {
    return null;
  }
}

/** Serializes a frame for `WebSocket.send`. */
export function frameText(frame: ServerFrame | ClientFrame): string {
  return JSON.stringify(frame);
}

/** A stored message (`at` in epoch ms) as the page sees it. */
export function toWire(message: {
  id: string;
  role: WireMessage["role"];
  text: string;
  at: number;
  interrupted?: boolean;
  source?: "workflow";
  question?: WireQuestion;
  answerTo?: string;
}): WireMessage {
  const wire: WireMessage = {
    id: message.id,
    role: message.role,
    text: message.text,
    at: new Date(message.at).toISOString(),
  };
  if (message.interrupted) wire.interrupted = true;
  if (message.source) wire.source = message.source;
  if (message.question) wire.question = message.question;
  if (message.answerTo) wire.answerTo = message.answerTo;
  return wire;
}
