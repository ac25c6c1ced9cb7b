/**
 * The service's error vocabulary and envelope (docs/errors.md):
 * `{"error":{"code","message","details":[],"requestId"}}` on every route; every code in ERROR_CODES.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Each code's statuses (the first is its usual one) and what it means (docs/errors.md#codes). */
export const ERROR_CODES = {
  invalid_request: {
    status: [400, 413],
    meaning: "The request is malformed; `details` lists every problem.",
  },
  invalid_parameters: {
    status: [400],
    meaning: "A launch parameter was refused; `details` lists `{code, name}`.",
  },
  passkey_refused: {
    status: [400],
    meaning:
      "The passkey could not be verified (unknown, a bad signature, or a used or expired challenge).",
  },
  credential_in_query: {
    status: [400],
    meaning: "A credential was sent in the query string; send it in a header.",
  },
  invalid_key: {
    status: [401],
    meaning: "The credential is missing, unknown, revoked or expired.",
  },
  invalid_signature: {
    status: [401],
    meaning: "The webhook call's signature did not verify against the node's `verify` setting.",
  },
  insufficient_scope: { status: [403], meaning: "The credential cannot do this." },
  handshake_refused: {
    status: [403],
    meaning:
      "A sender's webhook handshake was refused: a wrong Meta verify token, or a new Asana hook secret while one is kept.",
  },
  cross_site_request: {
    status: [403],
    meaning:
      "A change made with the dashboard's session cookie came from another site or without `X-Requested-With`, or a sign-in or sign-out form was posted from another site.",
  },
  forbidden_flow: { status: [403], meaning: "The widget key is limited to other agents." },
  browser_not_allowed: { status: [403], meaning: "The launch API refuses calls from browsers." },
  link_unavailable: {
    status: [403],
    meaning: "The link is expired or revoked (`details[0].reason`).",
  },
  invalid_ticket: { status: [403], meaning: "The socket ticket is unknown, used or expired." },
  not_found: { status: [404], meaning: "No such resource in this workspace." },
  widget_not_found: {
    status: [404],
    meaning: "No such agent, or it has no widget channel with this id.",
  },
  webhook_not_found: { status: [404], meaning: "No running workflow listens at this URL." },
  method_not_allowed: {
    status: [405],
    meaning: "The path does not accept this method; see `Allow`.",
  },
  too_many_pending_links: {
    status: [409],
    meaning: "The workspace is at its cap of unopened links.",
  },
  slug_taken: { status: [409], meaning: "The slug is already in use." },
  link_not_open: {
    status: [409],
    meaning: "Nobody has opened the link, so it has no conversation to end.",
  },
  conversation_not_ended: {
    status: [409],
    meaning: "The conversation has not ended yet (or never started), so it cannot be rated.",
  },
  already_rated: {
    status: [409],
    meaning: "The conversation was rated already; a rating is kept once.",
  },
  rating_disabled: {
    status: [409],
    meaning: "The link's widget channel does not ask for ratings.",
  },
  conversation_unavailable: {
    status: [409],
    meaning:
      "A workflow's node could not write to the link's conversation: it is ended, revoked or expired (`details[0].reason`).",
  },
  idempotency_key_in_use: {
    status: [409],
    meaning: "A request with this Idempotency-Key is still being processed; see `Retry-After`.",
  },
  endpoint_disabled: {
    status: [409],
    meaning: "The event endpoint is disabled; enable it before resending to it.",
  },
  replay_unavailable: {
    status: [409],
    meaning:
      "The execution cannot be replayed this way: its trigger node is gone from the definition, or its original definition was not kept.",
  },
  member_exists: { status: [409], meaning: "A member with this email already exists." },
  cannot_remove_owner: { status: [409], meaning: "The workspace owner cannot be removed." },
  cannot_change_owner: {
    status: [409],
    meaning: "The workspace owner's role cannot be changed.",
  },
  conversation_ended: { status: [410], meaning: "The conversation has ended." },
  payload_too_large: { status: [413], meaning: "The webhook body is larger than 1 MiB." },
  unsupported_media_type: {
    status: [415],
    meaning: "The body has a `Content-Encoding`; bodies are accepted as sent, never decoded.",
  },
  idempotency_key_reused: {
    status: [422],
    meaning: "The Idempotency-Key was used with another request body.",
  },
  invalid_body: {
    status: [422],
    meaning: "The webhook body does not parse as its Content-Type says.",
  },
  upgrade_required: { status: [426], meaning: "The socket route needs a WebSocket upgrade." },
  rate_limited: { status: [429], meaning: "Too many requests; see `Retry-After`." },
  queue_full: {
    status: [429],
    meaning:
      "The workflow's execution queue (its `concurrency.queueLimit`) is full; see `Retry-After`.",
  },
  too_many_connections: {
    status: [429],
    meaning: "The conversation has its maximum of live sockets.",
  },
  internal_error: { status: [500], meaning: "A fault on our side; nothing internal is shown." },
  misconfigured: {
    status: [500],
    meaning:
      "The deployment's settings are wrong (a secret or var); the message names the variable, never its value.",
  },
  workflow_failed: {
    status: [500],
    meaning: "The lastNode or responseNode execution failed; `executionId` says which.",
  },
  workflow_timeout: {
    status: [504],
    meaning: "The lastNode or responseNode execution outlived its timeout; it goes on.",
  },
} as const satisfies Record<string, { status: readonly ContentfulStatusCode[]; meaning: string }>;

/** Every error code the service answers with. */
export type ErrorCode = keyof typeof ERROR_CODES;
/** The statuses `C` may be answered with. */
export type ErrorStatus<C extends ErrorCode> = (typeof ERROR_CODES)[C]["status"][number];

/** One listed problem: `{field, code, message}` for invalid_request, `{code, name}` for parameters. */
export type ErrorDetail = Record<string, string | number | boolean | null>;

/** The error envelope's body. */
export type ErrorBody = {
  error: {
    code: ErrorCode;
    message: string;
    details: ErrorDetail[];
    requestId: string;
    /** The execution of a lastNode or responseNode call that failed or timed out. */
    executionId?: string;
    /** A timed-out lastNode or responseNode call: where its result can be fetched later. */
    resultUrl?: string;
    /** The credential for `resultUrl`, sent as `Authorization: Bearer …` (never in a URL). */
    resultToken?: string;
  };
};

/** An error a client can cause; anything else thrown is a bug, logged and answered 500 internal_error. */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: ErrorStatus<C>;
  readonly code: C;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;
  readonly executionId: string | undefined;
  readonly resultUrl: string | undefined;
  readonly resultToken: string | undefined;

  constructor(
    status: ErrorStatus<C>,
    code: C,
    message: string,
    options: {
      details?: ErrorDetail[];
      headers?: Record<string, string>;
      executionId?: string;
      resultUrl?: string;
      resultToken?: string;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
    this.executionId = options.executionId;
    this.resultUrl = options.resultUrl;
    this.resultToken = options.resultToken;
  }
}

/** Body of an error response. */
export function errorBody(
  code: ErrorCode,
  message: string,
  details: ErrorDetail[],
  requestId: string,
  extra: {
    executionId?: string | undefined;
    resultUrl?: string | undefined;
    resultToken?: string | undefined;
  } = {},
): ErrorBody {
  const { executionId, resultUrl, resultToken } = extra;
  return {
    error: {
      code,
      message,
      details,
      requestId,
      ...(executionId ? { executionId } : {}),
      ...(resultUrl ? { resultUrl } : {}),
      ...(resultToken ? { resultToken } : {}),
    },
  };
}

/** The response of an error, for routes outside Hono's onError. */
export function errorResponse(error: ApiError, requestId: string): Response {
  const body = errorBody(error.code, error.message, error.details, requestId, error);
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { ...error.headers, "content-type": "application/json", "x-request-id": requestId },
  });
}

/** 401 invalid_key, with the `WWW-Authenticate` challenge RFC 9110 asks of every 401. */
export const invalidKey = () =>
  new ApiError(401, "invalid_key", "The key is missing, unknown, revoked or expired.", {
    headers: { "www-authenticate": 'Bearer realm="agent-edge"' },
  });

/** 403 insufficient_scope: the credential is valid but cannot do this. */
export const insufficientScope = (message: string) =>
  new ApiError(403, "insufficient_scope", message);

/**
 * 500 misconfigured: the Worker's settings are wrong (docs/operations.md#configuration).
 * @param problem what is wrong, naming each variable and never its value (`misconfiguration`)
 */
export const misconfigured = (problem: string) =>
  new ApiError(500, "misconfigured", `The service is misconfigured. ${problem}`);

/** 404 not_found: nothing by this id in the caller's workspace. */
export const notFound = (message = "No such link in this workspace.") =>
  new ApiError(404, "not_found", message);

/** 400 invalid_request with `{field, code, message}` details (docs/errors.md#invalid-request). */
export const invalidRequest = (message: string, details: ErrorDetail[] = []) =>
  new ApiError(400, "invalid_request", message, { details });
