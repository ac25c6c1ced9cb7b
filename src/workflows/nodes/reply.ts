/**
 * What a webhook call is answered with when a node says so (docs/webhooks.md#replies,
 * docs/webhooks.md#respond-node): an immediate webhook's reply or a respond node's, and the model
 * of their headers and bodies. Headers that would break the connection or reach another site are
 * refused when the workflow is saved.
 */
import { z } from "@hono/zod-openapi";
import type { JsonValue } from "../../platform/json";
import { namesSessionCookie } from "../../platform/session-cookie-name";
import { isPlainObject } from "../engine/template";
import { jsonValue, setting } from "./common";
import { flagTo, whenObject } from "./problems";

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

/** The execution's own values a reply template may read: `{{$execution.id}}`. */
export const EXECUTION_SCOPE = "$execution";
/** A header name as HTTP allows it, in lower case. */
export const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers a reply may not set: hop-by-hop and framing ones are the runtime's, the x- ones ours. */
const REFUSED_HEADERS = new Set(
  "connection keep-alive proxy-authenticate proxy-authorization proxy-connection te trailer transfer-encoding upgrade content-length x-execution-id x-deduplicated x-debounced".split(
    " ",
  ),
);
const MAX_HEADERS = 20;
/** Longest header value, as written and as resolved (characters). */
export const MAX_HEADER_VALUE = 4_096;
/** Largest reply body, as JSON text (bytes). */
const MAX_BODY_BYTES = 16_384;

/** Whether an answer with `status` is sent without a body: 204, 205, 304 (RFC 9110), every 3xx. */
export const replyHasNoBody = (status: number) =>
  status === 204 || status === 205 || (status >= 300 && status <= 399);

/**
 * A cookie a webhook reply may never set, even through a template: one for another domain, a
 * `__Host-`/`__Secure-` one, or any named like the dashboard's session (docs/webhooks.md#replies).
 */
export function isRefusedCookie(setCookie: string): boolean {
  const name = setCookie.split("=", 1)[0]?.trim().toLowerCase() ?? "";
  return (
    /;\s*domain\s*=/i.test(setCookie) || /^__(host|secure)-/.test(name) || namesSessionCookie(name)
  );
}

const fitsHeader = (value: unknown): value is string =>
  typeof value === "string" && value.length <= MAX_HEADER_VALUE;

/** Whether `headers` has a `location` a reply may send, whatever the case of its name. */
export const hasLocation = (headers: unknown) =>
  isPlainObject(headers) &&
  Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === "location" && fitsHeader(value),
  );

/**
 * Headers of an immediate webhook's reply or of a respond node, names in any case (kept in lower
 * case), values templates; at most MAX_HEADERS (`too_large`), names HTTP allows (`invalid_header`),
 * no refused name nor a set-cookie `isRefusedCookie` refuses (`refused_header`).
 */
export function replyHeaders(description: string) {
  // A name is judged first: zod then leaves its value alone.
  const HeaderName = z.string().superRefine((name, ctx) => {
    const lower = name.toLowerCase();
    const message = `${lower} is set by the service, never by a workflow.`;
    if (!HEADER_NAME.test(lower)) flagTo(ctx)([], "invalid_header", "Not a header name.");
    else if (REFUSED_HEADERS.has(lower)) flagTo(ctx)([], "refused_header", message);
  });
  const HeaderValue = setting(z.string().max(MAX_HEADER_VALUE), {
    code: "invalid_type",
    message: `Header values are strings of at most ${MAX_HEADER_VALUE} characters.`,
  });
  return z
    .record(HeaderName, HeaderValue)
    .superRefine((headers, ctx) => {
      // zod leaves out of `headers` an entry whose name it refused; it is counted all the same.
      const count =
        Object.keys(headers).length + ctx.issues.filter((i) => i.code === "invalid_key").length;
      const flag = flagTo(ctx);
      if (count > MAX_HEADERS) flag([], "too_large", `At most ${MAX_HEADERS} headers.`);
      for (const [name, value] of Object.entries(headers)) {
        if (name.toLowerCase() === "set-cookie" && fitsHeader(value) && isRefusedCookie(value)) {
          const message =
            "Refused: a cookie for another domain, a __Host-/__Secure- cookie, or the dashboard's.";
          flag([name], "refused_header", message);
        }
      }
    }, whenObject)
    .transform((headers) =>
      Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
      ),
    )
    .openapi({
      maxProperties: MAX_HEADERS,
      description: `${description} Up to ${MAX_HEADERS}, names in any case (sent in lower case), values templates of at most ${MAX_HEADER_VALUE} characters as written and as resolved. Refused: ${[...REFUSED_HEADERS].join(", ")}, and a set-cookie with a Domain (docs/webhooks.md#replies).`,
    });
}

/** A reply's body: any JSON of at most MAX_BODY_BYTES as JSON text (`too_large`), its strings templates. */
export function replyBody(description: string) {
  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
  return jsonValue()
    .refine((value) => bytes(value) <= MAX_BODY_BYTES, {
      message: `At most ${MAX_BODY_BYTES} bytes.`,
      params: { code: "too_large" },
    })
    .optional()
    .openapi({ description: `${description} At most ${MAX_BODY_BYTES} bytes as JSON.` });
}
