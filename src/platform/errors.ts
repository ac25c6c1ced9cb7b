/**
 * The one error class and envelope of the API (spec section 7, contract section 0):
 * `{"error":{"code","message","details":[],"requestId"}}`.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** One listed problem: `{field, code, message}` for invalid_request, `{code, name}` for parameters. */
export type ErrorDetail = Record<string, string | number | boolean | null>;

/**
 * An error a client can cause, answered with its status and code. Anything thrown that is not an
 * ApiError is a bug: it is logged once and answered as 500 `internal_error` without internals.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }
}

/** Body of an error response. */
export function errorBody(
  code: string,
  message: string,
  details: ErrorDetail[],
  requestId: string,
): { error: { code: string; message: string; details: ErrorDetail[]; requestId: string } } {
  return { error: { code, message, details, requestId } };
}

export const invalidKey = () =>
  new ApiError(401, "invalid_key", "The key is missing, unknown, revoked or expired.");

export const insufficientScope = (message: string) =>
  new ApiError(403, "insufficient_scope", message);

export const notFound = (message = "No such link in this workspace.") =>
  new ApiError(404, "not_found", message);

/** 400 invalid_request with `{field, code, message}` details (contract section 3). */
export const invalidRequest = (message: string, details: ErrorDetail[] = []) =>
  new ApiError(400, "invalid_request", message, { details });
