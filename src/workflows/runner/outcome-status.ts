/** A webhook call's outcome name and answer status, for the request log (docs/webhooks.md#request-log). */
import type { DirectOutcome, WebhookOutcome } from "./contract";
import type { RequestOutcome } from "./request-log-entry";

/** The HTTP status an outcome is answered with. */
export function statusOf(outcome: DirectOutcome): number {
  switch (outcome.kind) {
    case "accepted":
      return outcome.reply?.status ?? 200;
    case "succeeded":
      return 200;
    case "responded":
      return outcome.reply.status;
    case "failed":
      return 500;
    case "timeout":
      return 504;
    case "invalid_signature":
      return 401;
    case "not_found":
      return 404;
    case "method_not_allowed":
      return 405;
    case "rate_limited":
    case "queue_full":
      return 429;
    case "bad_body":
      return outcome.status;
    case "handshake":
      return outcome.reply.status;
    case "handshake_refused":
      return 403;
  }
}

/** The request log's name for how a call ended. */
export function loggedOutcome(outcome: WebhookOutcome): RequestOutcome {
  switch (outcome.kind) {
    case "deduplicated":
      return "deduplicated";
    case "not_found":
      return "stopped";
    case "bad_body":
      return outcome.status === 413 ? "payload_too_large" : "invalid_body";
    case "handshake":
      return "handshake";
    case "handshake_refused":
      return "handshake_refused";
    case "accepted":
    case "succeeded":
    case "responded":
    case "failed":
    case "timeout":
      return "accepted";
    default:
      return outcome.kind;
  }
}
