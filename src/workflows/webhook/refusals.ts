/**
 * The errors of webhook calls refused before anything ran (docs/api/webhooks.md#responses): 404,
 * 405, the body's 413, 415 or 422, 429 for a full queue, 403 for a refused handshake.
 */
import { ApiError } from "../../platform/errors";
import { queueFull } from "../executions/queue-full";
import type { BadBodyStatus, CaptureOutcome, DirectOutcome } from "../runner/contract";

/** The error of a refused body: 413 payload_too_large, 415 unsupported_media_type, 422 invalid_body. */
function badBody(status: BadBodyStatus, message: string): ApiError {
  switch (status) {
    case 413:
      return new ApiError(413, "payload_too_large", message);
    case 415:
      return new ApiError(415, "unsupported_media_type", message);
    case 422:
      return new ApiError(422, "invalid_body", message);
  }
}

/** A refusal's error: 404, 405, the body's 413, 415 or 422, 429 for a full queue, or 403. */
export function refused(
  outcome:
    | Exclude<CaptureOutcome, { kind: "captured" }>
    | Extract<DirectOutcome, { kind: "handshake_refused" }>,
): ApiError {
  switch (outcome.kind) {
    case "not_found":
      return new ApiError(404, "webhook_not_found", "No running workflow listens at this URL.");
    case "method_not_allowed":
      return new ApiError(
        405,
        "method_not_allowed",
        `This webhook accepts ${outcome.allow} only.`,
        {
          headers: { allow: outcome.allow },
        },
      );
    case "bad_body":
      return badBody(outcome.status, outcome.message);
    case "queue_full":
      return queueFull(outcome.retryAfterSeconds);
    case "handshake_refused":
      return new ApiError(403, "handshake_refused", "The handshake was refused.");
  }
}
