/** The SDK's error: the service's error envelope (docs/errors.md) as a typed class. */

import type { components } from "./schema.js";

/** The error envelope the service answers with (generated); any part may be missing from a proxy. */
export type ErrorBody = { error?: Partial<components["schemas"]["Error"]["error"]> };

/** A refused call: its HTTP status, the error code to switch on, details and the request id. */
export class AgentEdgeError extends Error {
  override readonly name = "AgentEdgeError";

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>[],
    /** Quote it to support; the same as the answer's `x-request-id`. */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** The error of an answer; a body that is not the envelope still gives status and request id. */
  static from(status: number, body: ErrorBody | undefined, response?: Response): AgentEdgeError {
    const error = body?.error;
    return new AgentEdgeError(
      status,
      error?.code ?? "unknown_error",
      error?.message ?? `HTTP ${status}`,
      error?.details ?? [],
      error?.requestId ?? response?.headers.get("x-request-id") ?? undefined,
    );
  }
}
