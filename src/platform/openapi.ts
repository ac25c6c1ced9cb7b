/**
 * OpenAPI helpers: every operation lists its error codes per status (docs/errors.md#codes). Routes
 * name their own (`errorResponses("not_found")`); `withCommonErrors` adds those common to their kind.
 */
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "./errors";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).openapi({
        example: "invalid_request",
      }),
      message: z.string(),
      details: z.array(z.record(z.string(), z.unknown())),
      requestId: z.string(),
      executionId: z.string().optional().openapi({
        description:
          "The execution of a lastNode or responseNode webhook call that failed or timed out",
      }),
      resultUrl: z.string().optional().openapi({
        description:
          "A lastNode or responseNode call that timed out: GET it with `resultToken` for the result (202 while running; valid 24 h)",
      }),
      resultToken: z.string().optional().openapi({
        description:
          "The credential for `resultUrl`, sent as `Authorization: Bearer <resultToken>`; kept out of the URL, which request logs keep",
      }),
    }),
  })
  .openapi("Error");

/** The vendor extension that carries a route's own codes to `withCommonErrors`, which removes it. */
const CODES = "x-error-codes";

type ErrorResponse = {
  description: string;
  [CODES]: ErrorCode[];
  content: { "application/json": { schema: typeof ErrorSchema } };
};

/** A code, or a code at one of its statuses (`["invalid_request", 413]`). */
type CodeAt = ErrorCode | readonly [ErrorCode, number];

/** The `description` of one status: one line per code with its meaning. */
function describe(codes: readonly ErrorCode[]): string {
  return codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join("\n\n");
}

/** OpenAPI `responses` for the codes, by status (a code alone: every status it has in ERROR_CODES). */
export function errorResponses(...codes: CodeAt[]): Record<number, ErrorResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const entry of codes) {
    const [code, only] = typeof entry === "string" ? [entry, undefined] : entry;
    const statuses: readonly number[] = only === undefined ? ERROR_CODES[code].status : [only];
    for (const status of statuses) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, ErrorResponse> = {};
  for (const [status, list] of byStatus) {
    out[status] = {
      description: describe(list),
      [CODES]: list,
      content: { "application/json": { schema: ErrorSchema } },
    };
  }
  return out;
}

type Operation = {
  parameters?: unknown[];
  requestBody?: unknown;
  security?: Record<string, unknown>[];
  responses?: Record<string, { description?: string; content?: unknown; [CODES]?: ErrorCode[] }>;
};

/** The part of a registered route `withCommonErrors` reads: whether it validates its query. */
type RouteDefinition = {
  type: string;
  route?: { method: string; path: string; request?: { query?: unknown } };
};

/** The operations (`"get /v1/manage/agents"`) whose route validates its query string. */
function queryValidated(definitions: readonly RouteDefinition[]): Set<string> {
  const out = new Set<string>();
  for (const { type, route } of definitions) {
    if (type === "route" && route?.request?.query) out.add(`${route.method} ${route.path}`);
  }
  return out;
}

/** The codes any operation like this one can answer with, beyond those its route names. */
function commonCodes(
  path: string,
  method: string,
  operation: Operation,
  query: boolean,
): [ErrorCode, number][] {
  const codes: [ErrorCode, number][] = [
    ["internal_error", 500],
    ["misconfigured", 500],
  ];
  const schemes = new Set((operation.security ?? []).flatMap((entry) => Object.keys(entry)));
  const api = path.startsWith("/v1/");
  if (api) codes.push(["credential_in_query", 400]);
  // Even a route taking no query refuses one (NoQuerySchema leaves no trace in `parameters`).
  if (api || query) codes.push(["invalid_request", 400]);
  if (api && operation.requestBody) {
    codes.push(["invalid_request", 413], ["unsupported_media_type", 415]);
  }
  if (schemes.size > 0) codes.push(["invalid_key", 401]);
  if (schemes.has("memberToken") || schemes.has("widgetKey")) {
    codes.push(["insufficient_scope", 403]);
  }
  // A change made with the dashboard's session cookie instead of a member token must come from
  // this origin with X-Requested-With (src/auth/middleware.ts, docs/dashboard.md#sign-in).
  if (schemes.has("memberToken") && method !== "get" && method !== "head") {
    codes.push(["cross_site_request", 403]);
  }
  if (schemes.has("widgetKey")) codes.push(["browser_not_allowed", 403], ["rate_limited", 429]);
  return codes;
}

/**
 * Adds to every operation the error codes common to its kind, and rewrites each error response's
 * description and `code` enum to the full list.
 * @param document from `getOpenAPI31Document`; changed in place and returned
 * @param definitions `app.openAPIRegistry.definitions`, which tell the routes validating queries
 */
export function withCommonErrors<T extends { paths?: Record<string, unknown> }>(
  document: T,
  definitions: readonly RouteDefinition[],
): T {
  const queried = queryValidated(definitions);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (typeof operation !== "object" || operation === null || !operation.responses) continue;
      const byStatus = new Map<string, Set<ErrorCode>>();
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response[CODES]) byStatus.set(status, new Set(response[CODES]));
      }
      const query = queried.has(`${method} ${path}`);
      for (const [code, status] of commonCodes(path, method, operation, query)) {
        const key = String(status);
        byStatus.set(key, (byStatus.get(key) ?? new Set()).add(code));
      }
      for (const [status, codes] of byStatus) {
        const list = [...codes];
        operation.responses[status] = {
          description: describe(list),
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/Error" },
                  {
                    type: "object",
                    properties: { error: { type: "object", properties: { code: { enum: list } } } },
                  },
                ],
              },
            },
          },
        };
      }
    }
  }
  return document;
}

/** The HTTP methods of the API's operations. */
type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * The head every operation of one tag shares (tag, security scheme), so a route config names only
 * its own method, path, operationId and summary: `const op = operations("Agents", "memberToken")`,
 * then `router.openapi({ ...op("get", "/v1/manage/agents", "listAgents", "…"), … }, handler)`.
 * @param schemes the security schemes src/platform/app.ts registers (`memberToken`, …), any one
 *   of which is accepted; none: an operation without a credential
 */
export function operations(tag: string, ...schemes: string[]) {
  const security: Record<string, string[]>[] = schemes.map((scheme) => ({ [scheme]: [] }));
  const common = { tags: [tag], ...(schemes.length === 0 ? {} : { security }) };
  return <M extends Method, P extends string>(
    method: M,
    path: P,
    operationId: string,
    summary: string,
  ) => ({ ...common, method, path, operationId, summary });
}

/** An operation's JSON answer, `responses[status]` of a route config. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/**
 * An operation's `responses`: its JSON answer at `status`, and its error codes by status (as
 * `errorResponses(...codes)`).
 */
export function answers<S extends number, T extends z.ZodType>(
  status: S,
  schema: T,
  description: string,
  ...codes: CodeAt[]
) {
  const answer = { [status]: jsonResponse(schema, description) } as {
    [K in S]: ReturnType<typeof jsonResponse<T>>;
  };
  return { ...answer, ...errorResponses(...codes) };
}

/** An operation's `responses`: 204 with no body, and its error codes by status. */
export function noContent(description: string, ...codes: CodeAt[]) {
  return { 204: { description }, ...errorResponses(...codes) };
}

/**
 * A route's JSON body, `request.body` of a route config: required unless `optional` (then no body
 * at all is `{}`, as `jsonBody(…, { optional: true })` reads it).
 */
export function jsonRequest<T extends z.ZodType>(schema: T, options: { optional?: boolean } = {}) {
  return { required: !options.optional, content: { "application/json": { schema } } };
}

/** A path parameter `{name}` of a route: `schema` named in the path. */
export function pathParam<T extends z.ZodType>(name: string, schema: T): T {
  return schema.openapi({ param: { name, in: "path" } });
}

/** A path parameter `{name}` that is an id: 1 to `max` characters, checked by its service. */
export function pathId(name: string, max = 64) {
  return pathParam(name, z.string().min(1).max(max));
}

/** `{id}` path parameter. */
export const IdParamSchema = z.object({ id: pathId("id") });

/**
 * `head` (an `operations(…)` head whose path has `{id}`) as a read of one thing: the `{id}` path
 * parameter and `answers(200, schema, description, ...codes)` (docs/api/manage.md).
 */
export function readRoute<H extends object, T extends z.ZodType>(
  head: H,
  schema: T,
  description: string,
  ...codes: CodeAt[]
) {
  return {
    ...head,
    request: { params: IdParamSchema },
    responses: answers(200, schema, description, ...codes),
  };
}

/** The query of a list route that takes no query parameters: any one given is refused (400). */
export const NoQuerySchema = z.strictObject({});
