/**
 * Webhook replies (docs/webhooks.md#replies, docs/webhooks.md#respond-node): an immediate node's
 * own, and how any reply becomes the HTTP answer.
 */
import type { JsonValue } from "../../platform/json";
import { resolveReplyHeaders } from "../engine/respond";
import { resolveValue, valueAsText } from "../engine/template";
import type { ReplyContentType, WebhookReply } from "../nodes/reply";
import { EXECUTION_SCOPE, isRefusedCookie, replyHasNoBody } from "../nodes/reply";
import type { WebhookNode, WebhookOutput } from "../nodes/types";

/** What the Worker answers a call with, when a node says (see WebhookReply). */
export type Reply = WebhookReply;

/** The Content-Type each content type is sent with, when no `content-type` header is set. */
const MEDIA_TYPES: Record<ReplyContentType, string> = {
  json: "application/json",
  text: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  xml: "application/xml",
};

/**
 * The node's reply for this call over the call and `{{$execution.id}}`, never secrets; undefined
 * for the default `{success, executionId}`. Header values lose control characters.
 */
export function renderReply(
  node: WebhookNode,
  output: WebhookOutput,
  executionId: string,
): Reply | undefined {
  const { responseStatus, responseHeaders, responseBody } = node;
  if (responseStatus === undefined && responseHeaders === undefined && responseBody === undefined) {
    return undefined;
  }
  const scope = {
    outputs: { [node.key]: output as unknown as JsonValue, [EXECUTION_SCOPE]: { id: executionId } },
    secrets: {},
  };
  const body =
    responseBody === undefined ? { success: true, executionId } : resolveValue(responseBody, scope);
  return {
    status: responseStatus ?? 200,
    headers: resolveReplyHeaders(responseHeaders ?? {}, scope),
    contentType: typeof body === "string" ? "text" : "json",
    body,
  };
}

/**
 * The HTTP answer of a reply: status, headers (`content-type` by default; refused cookies dropped)
 * and body as text; none for 204, 205, 304 and redirects.
 */
export function encodeReply(reply: Reply): {
  status: number;
  headers: Record<string, string>;
  body: string | null;
} {
  const headers = { ...reply.headers };
  if (headers["set-cookie"] !== undefined && isRefusedCookie(headers["set-cookie"])) {
    delete headers["set-cookie"];
  }
  if (reply.body === undefined || replyHasNoBody(reply.status)) {
    return { status: reply.status, headers, body: null };
  }
  headers["content-type"] ??= MEDIA_TYPES[reply.contentType];
  const body = reply.contentType === "json" ? JSON.stringify(reply.body) : valueAsText(reply.body);
  return { status: reply.status, headers, body };
}
