/**
 * What a webhook call is answered with when a node says so (docs/webhooks.md#replies,
 * docs/webhooks.md#respond-node): an immediate webhook's reply or a respond node's output.
 */
import type { JsonValue } from "../../platform/json";

/** How a reply's body is encoded, and its Content-Type unless a `content-type` header is set. */
export const REPLY_CONTENT_TYPES = ["json", "text", "html", "xml"] as const;
export type ReplyContentType = (typeof REPLY_CONTENT_TYPES)[number];

/**
 * An answer to a webhook call. `body` absent: no body; a `json` body is sent as JSON, the other
 * types' as the text they hold (a respond node renders them as text).
 */
export type WebhookReply = {
  status: number;
  headers: Record<string, string>;
  contentType: ReplyContentType;
  body?: JsonValue;
};
