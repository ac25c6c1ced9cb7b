/**
 * The reply settings of an immediate webhook node (docs/webhooks.md#replies): `responseStatus`,
 * `responseHeaders` and `responseBody`, templates over the call and `{{$execution.id}}`. Headers
 * that would break the connection or reach another site are refused when the workflow is saved;
 * respond nodes (validate-respond.ts) use the same header and body checks.
 */

import type { JsonValue } from "../../platform/json";
import { namesSessionCookie } from "../../platform/session-cookie-name";
import { cloneJson } from "../engine/clone";
import { isPlainObject } from "../engine/template";
import { HEADER_NAME, type ReportProblem } from "./types";

/** The reply fields, in the order they are checked. */
export const REPLY_FIELDS = ["responseStatus", "responseHeaders", "responseBody"] as const;
/** The execution's own values a reply template may read: `{{$execution.id}}`. */
export const EXECUTION_SCOPE = "$execution";

/** Headers a reply may not set: hop-by-hop and framing ones are the runtime's, the x- ones ours. */
export const REFUSED_HEADERS: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "x-execution-id",
  "x-deduplicated",
]);
export const MAX_HEADERS = 20;
/** Longest header value, as written and as resolved (characters). */
export const MAX_HEADER_VALUE = 4_096;
/** Largest reply body, as JSON text (bytes). */
export const MAX_BODY_BYTES = 16_384;
/** A set-cookie value naming a Domain: a cookie for another site, refused. */
export const COOKIE_DOMAIN = /;\s*domain\s*=/i;
/**
 * A cookie a webhook reply may never set, even through a template: one for another domain, a
 * `__Host-`/`__Secure-` one, or any named like the dashboard's session (docs/webhooks.md#replies).
 */
export function isRefusedCookie(setCookie: string): boolean {
  const name = setCookie.split("=", 1)[0]?.trim().toLowerCase() ?? "";
  return (
    COOKIE_DOMAIN.test(setCookie) ||
    name.startsWith("__host-") ||
    name.startsWith("__secure-") ||
    namesSessionCookie(name)
  );
}

/** The statuses an immediate webhook's `responseStatus` may have. */
export const REPLY_STATUS = { min: 200, max: 299 } as const;

export type ReplySettings = {
  responseStatus?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: JsonValue;
};

/** Reads the reply settings (allowed with `responseMode: "immediate"` only), reporting each problem. */
export function readReply(
  raw: Record<string, unknown>,
  responseMode: string,
  report: ReportProblem,
): ReplySettings {
  const present = REPLY_FIELDS.filter((field) => Object.hasOwn(raw, field));
  if (present.length > 0 && responseMode !== "immediate") {
    for (const field of present) {
      report(field, "not_allowed", `${field} is for responseMode "immediate" only.`);
    }
    return {};
  }
  const reply: ReplySettings = {};
  if (Object.hasOwn(raw, "responseStatus")) {
    const status = raw.responseStatus;
    if (
      typeof status === "number" &&
      Number.isInteger(status) &&
      status >= REPLY_STATUS.min &&
      status <= REPLY_STATUS.max
    ) {
      reply.responseStatus = status;
    } else {
      const range = `${REPLY_STATUS.min} to ${REPLY_STATUS.max}`;
      report("responseStatus", "out_of_range", `responseStatus must be from ${range}.`);
    }
  }
  if (Object.hasOwn(raw, "responseHeaders")) {
    const headers = readReplyHeaders(raw.responseHeaders, "responseHeaders", report);
    if (headers) reply.responseHeaders = headers;
  }
  if (Object.hasOwn(raw, "responseBody")) {
    const body = readReplyBody(raw.responseBody, "responseBody", report);
    if (body !== undefined) reply.responseBody = body;
  }
  return reply;
}

/**
 * A reply's body as written (a copy), or undefined after reporting one over 16 KiB as JSON text.
 * Shared by immediate replies and respond nodes (docs/webhooks.md#replies).
 */
export function readReplyBody(
  raw: unknown,
  setting: string,
  report: ReportProblem,
): JsonValue | undefined {
  const body = cloneJson(raw);
  if (new TextEncoder().encode(JSON.stringify(body)).byteLength <= MAX_BODY_BYTES) return body;
  report(setting, "too_large", `${setting} is at most ${MAX_BODY_BYTES} bytes.`);
  return undefined;
}

/**
 * A reply's headers with lower-case names, or undefined when `raw` is not an object. Reports,
 * under `<setting>.<name>`, names HTTP does not allow, the refused ones (hop-by-hop, framing, ours),
 * values that are not strings of at most MAX_HEADER_VALUE characters and a set-cookie for another
 * domain; those are left out. Shared by immediate replies and respond nodes (docs/webhooks.md#replies).
 */
export function readReplyHeaders(
  raw: unknown,
  setting: string,
  report: ReportProblem,
): Record<string, string> | undefined {
  if (!isPlainObject(raw)) {
    report(setting, "invalid_type", `${setting} must be an object.`);
    return undefined;
  }
  const entries = Object.entries(raw);
  if (entries.length > MAX_HEADERS) {
    report(setting, "too_large", `At most ${MAX_HEADERS} headers.`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    const field = `${setting}.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(lower)) report(field, "invalid_header", "Not a header name.");
    else if (REFUSED_HEADERS.has(lower)) {
      report(field, "refused_header", `${lower} is set by the service, never by a workflow.`);
    } else if (typeof value !== "string" || value.length > MAX_HEADER_VALUE) {
      report(field, "invalid_type", `Header values are strings of at most ${MAX_HEADER_VALUE}.`);
    } else if (lower === "set-cookie" && isRefusedCookie(value)) {
      report(
        field,
        "refused_header",
        "Refused: a cookie for another domain, a __Host-/__Secure- cookie, or the dashboard's.",
      );
    } else headers[lower] = value;
  }
  return headers;
}
