/**
 * Signing and sending one delivery (docs/events.md): Standard Webhooks with its reference library;
 * `webhook-id` the event id, one `v1,` signature per live secret (two during a rotation).
 */
import { Webhook } from "standardwebhooks";
import { DestinationNotAllowed, type OutboundPolicy, outboundFetch } from "../platform/outbound";

/** How long one attempt may take before it counts as failed (ms). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Bytes of the receiver's answer kept in the delivery log. */
export const KEPT_RESPONSE_BYTES = 1024;
/** How long a claimed delivery is left to its consumer before another may take it (ms). */
export const CLAIM_MS = 60_000;
/** Waits before each retry (s): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery fails. */
export const RETRY_SCHEDULE_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;

/**
 * The signed headers of one attempt.
 * @param secrets the endpoint's live `whsec_` secrets, newest first
 * @param at the attempt's time
 */
export function signedHeaders(
  secrets: readonly string[],
  eventId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    "content-type": "application/json",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/** The outcome of one attempt, for the delivery log. */
export type Attempt = {
  ok: boolean;
  /** The receiver's status; null for a network error or timeout. */
  status: number | null;
  latencyMs: number;
  /** The first KEPT_RESPONSE_BYTES of the answer, or the error. */
  response: string;
};

/** How one attempt is sent: the outbound policy, and for tests a fetch and a shorter timeout. */
export type SendOptions = { policy: OutboundPolicy; fetchImpl?: typeof fetch; timeoutMs?: number };

/**
 * POSTs the signed event once: 2xx succeeds; a 3xx (not followed), a timeout or a destination the
 * policy refuses (docs/security.md#outbound-requests; nothing sent) fails.
 */
export async function sendOnce(
  url: string,
  secrets: readonly string[],
  eventId: string,
  body: string,
  { policy, fetchImpl = fetch, timeoutMs = DELIVERY_TIMEOUT_MS }: SendOptions,
): Promise<Attempt> {
  const started = Date.now();
  try {
    const headers = signedHeaders(secrets, eventId, body, new Date());
    const signal = AbortSignal.timeout(timeoutMs);
    const response = await outboundFetch(
      url,
      { method: "POST", headers, body, signal },
      policy,
      0,
      fetchImpl,
    );
    const kept = await firstBytes(response, KEPT_RESPONSE_BYTES);
    return {
      ok: response.ok,
      status: response.status,
      latencyMs: Date.now() - started,
      response: kept,
    };
  } catch (error) {
    const reason =
      error instanceof DestinationNotAllowed
        ? `${error.code}: ${error.message}`
        : error instanceof Error && error.name === "TimeoutError"
          ? "timeout"
          : "network";
    return { ok: false, status: null, latencyMs: Date.now() - started, response: reason };
  }
}

/** The first `max` bytes of the answer as text, the rest unread; a broken body keeps what came. */
async function firstBytes(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const kept = new Uint8Array(max);
  let length = 0;
  try {
    while (length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = value.subarray(0, max - length);
      kept.set(take, length);
      length += take.byteLength;
    }
  } catch {
    // broken off: what arrived is kept
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(kept.subarray(0, length));
}

/** Seconds to wait before retry number `attempt` (1-based), with ±10 % jitter; null: give up. */
export function retryDelaySeconds(attempt: number, random = Math.random): number | null {
  const base = RETRY_SCHEDULE_S[attempt - 1];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * (0.9 + random() * 0.2)));
}
