/** The request log's entries as shown, and its limits (docs/webhooks.md#request-log). */
import { redactPrepared } from "../engine/redact";

/** How a call to a webhook URL ended, as the request log records it. */
export const REQUEST_OUTCOMES = [
  "accepted",
  "deduplicated",
  "queued",
  "debounced",
  "batched",
  "invalid_signature",
  "rate_limited",
  "method_not_allowed",
  "payload_too_large",
  "invalid_body",
  "stopped",
  "queue_full",
  "handshake",
  "handshake_refused",
] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/** The log's limits (docs/webhooks.md#request-log). */
export const REQUEST_LOG = {
  maxEntries: 1_000,
  maxAgeMs: 7 * 24 * 3600 * 1000,
  previewBytes: 2_048,
  /** How long an entry may wait to be written with others (ms). */
  writeBatchMs: 10,
} as const;

/** One call as the log shows it; times in epoch ms. */
export type LoggedRequest = {
  /** `whr_…`, opaque. */
  id: string;
  /** The HTTP request's id, as its answer's `x-request-id` (and an error's `requestId`) gave it. */
  requestId: string;
  receivedAt: number;
  nodeKey: string;
  method: string;
  /** The HTTP status the call was answered with. */
  status: number;
  outcome: RequestOutcome;
  executionId: string | null;
  latencyMs: number;
  /** The body's size in bytes (as declared, for one refused unread). */
  size: number;
  /** Lower-case names; values of credentials and signatures are `[redacted]`. */
  headers: Record<string, string>;
  /** The body's first 2 KiB as text. */
  bodyPreview: string;
  /** Why it was refused, for refusals: a signature's reason is kept from the caller, a body's is its answer's message. */
  reason: string | null;
  /** The name of the secret that verified the signature (never its value): docs/webhooks.md#rotation. */
  verifiedWith?: string;
};

/** One call with its whole body: UTF-8 text, or base64 of bytes that are not; null when never read. */
export type LoggedRequestDetail = LoggedRequest & {
  body: string | null;
  bodyEncoding: "utf8" | "base64";
};

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A body's bytes as text when they are UTF-8, else null (kept as bytes). */
export function decodeStrict(bytes: Uint8Array): string | null {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return null;
  }
}

const encoder = new TextEncoder();

/**
 * A body as the log shows it: its text (UTF-8, `secrets` removed; null for bytes that are not
 * UTF-8 or no body) and its preview, the first REQUEST_LOG.previewBytes of it (no secret half shown).
 */
export function previewOf(
  body: Uint8Array | null,
  secrets: string[],
): { text: string | null; preview: string } {
  const decoded = body ? decodeStrict(body) : null;
  const text = decoded === null ? null : redactPrepared(decoded, secrets);
  const bytes =
    text === null
      ? body
      : text.length * 3 <= REQUEST_LOG.previewBytes
        ? null
        : // A character is at least a byte: this prefix holds the preview, without encoding 1 MiB.
          encoder.encode(text.slice(0, REQUEST_LOG.previewBytes));
  // A streaming decode leaves out a character cut in half by the preview's end.
  const preview =
    bytes === null
      ? (text ?? "")
      : new TextDecoder().decode(bytes.subarray(0, REQUEST_LOG.previewBytes), { stream: true });
  return { text, preview };
}

/** The time-ordered suffix (18 digits) of an entry's id `whr_<suffix>…`, or null. */
export function suffixFromId(id: string): string | null {
  const suffix = id.slice(4, 22);
  return id.startsWith("whr_") && /^\d{18}$/.test(suffix) ? suffix : null;
}
