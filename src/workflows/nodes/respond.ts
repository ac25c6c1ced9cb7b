/**
 * The respond node (docs/webhooks.md#respond-node): answers the call of a responseNode webhook it
 * follows, and the run goes on. A 3xx needs a `location` header, and a status without a body
 * refuses one.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { defineNode, withDefault } from "./common";
import { hasLocation, REPLY_CONTENT_TYPES, replyBody, replyHasNoBody, replyHeaders } from "./reply";

const Status = once(() =>
  withDefault(z.number().int().min(200).max(599), 200, {
    about:
      "The answer's status; a 3xx needs a `location` header; 204, 205, 304 and every 3xx carry no body.",
  }),
);

/** Answers a responseNode webhook's call with its status, headers and body. */
export const respond = defineNode({
  type: "respond",
  label: "Respond",
  templated: ["headers", "body"],
  description:
    "Answers the call of a responseNode webhook it follows, and the run goes on (docs/webhooks.md#respond-node).",
  settings: () => ({
    status: Status(),
    headers: withDefault(
      replyHeaders(
        "The answer's headers, templates over earlier nodes and {{$execution.id}}; a `content-type` replaces the one of `contentType`. Default: none.",
      ),
      {},
    ),
    body: replyBody(
      "Any JSON, its strings templates over earlier nodes and {{$execution.id}}. Absent: the answer has no body.",
    ),
    contentType: withDefault(z.enum(REPLY_CONTENT_TYPES), "json", {
      about:
        "How the body is encoded, and its Content-Type unless a `content-type` header says otherwise.",
    }),
  }),
  output: () => ({ status: 200, headers: {}, body: {} }),
  rules: (node, flag) => {
    // A wrong status is reported as such; the rules go on as with the default.
    const status = Status().safeParse(node.status).data ?? 200;
    if (status >= 300 && status <= 399 && !hasLocation(node.headers)) {
      flag(
        ["headers"],
        "missing_location",
        `A ${status} answer is a redirect: set headers.location.`,
      );
    }
    if (replyHasNoBody(status) && Object.hasOwn(node, "body")) {
      flag(["body"], "not_allowed", `A ${status} answer carries no body.`);
    }
  },
});
