/** Reads a webhook request into the trigger's outputs (docs/api/webhooks.md#request-outputs). */

import { type JsonValue, jsonTextTooDeep } from "../../platform/json";
import { readRequestBody } from "../../platform/read-limited";

/** Largest webhook body accepted, in bytes (1 MiB); above it the caller answers 413. */
export const MAX_WEBHOOK_BODY_BYTES = 1_048_576;

/** Deepest nesting of a JSON body, the body itself being 1 (docs/limits.md#nesting). */
export const MAX_WEBHOOK_JSON_DEPTH = 128;

/** A multipart file part in `body`: name, type and size in bytes, never its content. */
export type FileSummary = { filename: string; contentType: string; size: number };

type Field<V> = V | V[];

// Not fatal: invalid bytes become U+FFFD instead of throwing; a leading BOM is dropped.
const lenientUtf8 = new TextDecoder("utf-8");

/** The entries as a plain object, repeated names as arrays; `Object.fromEntries` keeps `__proto__` data. */
function collect<V>(entries: Iterable<[string, V]>): Record<string, Field<V>> {
  const fields = new Map<string, Field<V>>();
  for (const [name, value] of entries) {
    const previous = fields.get(name);
    if (previous === undefined) fields.set(name, value);
    else if (Array.isArray(previous)) previous.push(value);
    else fields.set(name, [previous, value]);
  }
  return Object.fromEntries(fields);
}

/**
 * The body's bytes; `too_large` beyond `maxBytes` (by Content-Length or as the stream passes it),
 * `broken` when the stream fails early (413 and 422, docs/api/webhooks.md#responses). Never throws.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: "too_large" | "broken" }> {
  const read = await readRequestBody(request, maxBytes);
  return read.ok ? read : { ok: false, reason: read.reason };
}

/** The media type without parameters, lower case: `Application/JSON; charset=x` → `application/json`. */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
}

async function parseMultipart(
  bytes: Uint8Array,
  contentType: string,
): Promise<{ ok: true; body: JsonValue } | { ok: false; message: string }> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    return { ok: false, message: "The multipart body could not be parsed." };
  }
  const entries: [string, string | FileSummary][] = [];
  for (const [name, value] of form) {
    entries.push([
      name,
      typeof value === "string"
        ? value
        : {
            filename: value.name,
            contentType: value.type || "application/octet-stream",
            size: value.size,
          },
    ]);
  }
  return { ok: true, body: collect(entries) };
}

/**
 * Parses the body by Content-Type: JSON and `*+json` (empty `{}`, depth-limited), form fields
 * (files as {@link FileSummary}), anything else `{}` with the text in `rawBody`. Failures are
 * `{ok:false, message}`, answered 422 invalid_body (docs/api/webhooks.md#responses). Never throws.
 */
export async function parseWebhookBody(
  bytes: Uint8Array,
  contentType: string | null,
): Promise<{ ok: true; body: JsonValue; rawBody?: string } | { ok: false; message: string }> {
  if (bytes.byteLength === 0) return { ok: true, body: {} };
  const type = mediaType(contentType);
  if (type === "application/json" || /^application\/[^\s/]+\+json$/.test(type)) {
    const text = lenientUtf8.decode(bytes);
    // Counted on the text: parsing, cloning or storing a value thousands of levels deep overflows.
    if (jsonTextTooDeep(text, MAX_WEBHOOK_JSON_DEPTH)) {
      return {
        ok: false,
        message: `The JSON body nests deeper than ${MAX_WEBHOOK_JSON_DEPTH} levels.`,
      };
    }
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch (error) {
      // Short: the engine's message quotes the body, which has no place in a long error message.
      const reason = error instanceof Error ? error.message.slice(0, 120) : "unparsable";
      return { ok: false, message: `The body is not valid JSON: ${reason}` };
    }
  }
  if (type === "application/x-www-form-urlencoded") {
    return { ok: true, body: collect(new URLSearchParams(lenientUtf8.decode(bytes))) };
  }
  if (type === "multipart/form-data" && contentType) return parseMultipart(bytes, contentType);
  return { ok: true, body: {}, rawBody: lenientUtf8.decode(bytes) };
}

/** Headers as `{lower-case name: value}`; a repeated header's values joined by ", " as `get` does. */
export function webhookHeaders(headers: Headers): Record<string, string> {
  // Own properties (a `__proto__` header stays data). Iteration yields every name once, joined,
  // but each set-cookie apart: those are joined as `get` does.
  const out: Record<string, string> = Object.fromEntries(headers);
  if (Object.hasOwn(out, "set-cookie")) out["set-cookie"] = headers.getSetCookie().join(", ");
  return out;
}

/** Query parameters as strings, in order; a repeated name becomes an array. */
export function webhookQueryParams(url: URL): Record<string, string | string[]> {
  return collect(url.searchParams);
}
