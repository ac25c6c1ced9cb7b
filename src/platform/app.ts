/**
 * The app factory: request ids, the settings check, the one error envelope, validation errors, not-found, and the
 * OpenAPI 3.1 document generated from the routes' zod schemas (docs/README.md#api-reference,
 * docs/errors.md).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { type RequestIdVariables, requestId } from "hono/request-id";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { misconfiguration } from "./config";
import { docsPage } from "./docs-page";
import type { AppBindings } from "./env";
import { ApiError, type ErrorBody, errorBody, invalidRequest, misconfigured } from "./errors";
import { log, redactUrl } from "./log";
import { NoQuerySchema, withCommonErrors } from "./openapi";
import { CursorParam, LimitParam } from "./paging";
import { issuesToDetails } from "./validation";

const bearer = (description: string) => ({ type: "http" as const, scheme: "bearer", description });

/** The credentials operations name in `security` (docs/security.md#credentials), by scheme name. */
const SECURITY_SCHEMES = {
  widgetKey: bearer("Widget key (`wk_live_…`) as `Authorization: Bearer <key>`."),
  widgetKeyHeader: {
    type: "apiKey" as const,
    in: "header" as const,
    name: "x-api-key",
    description: "Widget key (`wk_live_…`) in the `x-api-key` header.",
  },
  memberToken: bearer("Member token (`mt_…`)."),
  resultToken: bearer(
    "A result handle's token: the `error.resultToken` of a webhook call's 504 workflow_timeout.",
  ),
  operatorToken: bearer("The OPERATOR_TOKEN Worker secret."),
};

/** The Hono env every route has; capabilities extend its Variables (e.g. `MemberEnv`). */
export type AppEnv = { Bindings: AppBindings; Variables: RequestIdVariables };

/**
 * A sub-app whose request validation failures become `400 invalid_request` listing every problem,
 * a query parameter's as `query.<name>`. An API route (`/v1/…`) declaring no query takes none: any
 * parameter is refused like an unknown one (docs/api/README.md#lists-and-paging).
 */
export function createRouter<E extends AppEnv = AppEnv>(): OpenAPIHono<E> {
  const router = new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        // @hono/zod-validator passes the validated input as `data`; "required" is told from it.
        const input = (result as { data?: unknown }).data;
        const where = result.target === "json" ? "body" : result.target;
        const details = issuesToDetails(result.error.issues, input);
        throw invalidRequest(
          `The request ${where} is invalid.`,
          where === "query"
            ? details.map((detail) => ({ ...detail, field: `query.${detail.field}` }))
            : details,
        );
      }
    },
  });
  const openapi = router.openapi.bind(router);
  router.openapi = ((route, ...rest) =>
    openapi(
      route.path.startsWith("/v1/") && !route.request?.query
        ? { ...route, request: { ...route.request, query: NoQuerySchema } }
        : route,
      ...rest,
    )) as typeof router.openapi;
  return router;
}

/** A new request id: `req_` and 32 hex characters (docs/architecture.md#ids-and-formats). */
export const newRequestId = () => `req_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * The request id of `request`, as the app's `requestId` middleware chooses it: the caller's
 * `X-Request-Id` when it is at most 255 word characters, `-` and `=`, otherwise a new one.
 */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && given.length <= 255 && !/[^\w\-=]/.test(given) ? given : newRequestId();
}

/**
 * The answer to an error thrown while serving `request` (docs/errors.md): an ApiError's envelope,
 * status and headers; a client error Hono raised, as `invalid_request`; anything else is logged once
 * and answered 500 `internal_error`, without internals.
 */
export function errorAnswer(
  error: unknown,
  requestId: string,
  request: Request,
): { body: ErrorBody; status: ContentfulStatusCode; headers: Record<string, string> } {
  if (error instanceof ApiError) {
    const body = errorBody(error.code, error.message, error.details, requestId, error);
    return { body, status: error.status, headers: error.headers };
  }
  if (error instanceof HTTPException && error.status < 500) {
    const body = errorBody("invalid_request", error.message, [], requestId);
    return { body, status: error.status, headers: {} };
  }
  log("error", "request_failed", {
    requestId,
    method: request.method,
    url: redactUrl(request.url),
    error,
  });
  const body = errorBody("internal_error", "Something went wrong on our side.", [], requestId);
  return { body, status: 500, headers: {} };
}

/** Builds the whole app with its cross-cutting middleware; routers are mounted by `src/index.ts`. */
export function createApp(): OpenAPIHono<AppEnv> {
  const app = createRouter();
  app.use(requestId({ generator: newRequestId }));
  // Wrong settings are refused at the door, with their name, rather than failing later in a
  // route (docs/operations.md#configuration).
  app.use(async (c, next) => {
    const problem = misconfiguration(c.env);
    if (problem) throw misconfigured(problem);
    await next();
  });

  app.onError((error, c) => {
    const answer = errorAnswer(error, c.get("requestId") ?? "", c.req.raw);
    for (const name in answer.headers) c.header(name, answer.headers[name]);
    return c.json(answer.body, answer.status);
  });

  // A path some route serves with other methods gets 405 and `Allow`; only an unknown path is 404.
  let allowed: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    allowed ??= allowedMethods(app.routes);
    const allow = allowed(c.req.path);
    const id = c.get("requestId") ?? "";
    if (allow.length > 0) {
      c.header("allow", allow.join(", "));
      const message = `${c.req.method} is not allowed here; use ${allow.join(", ")}.`;
      return c.json(errorBody("method_not_allowed", message, [], id), 405);
    }
    return c.json(
      errorBody("not_found", `No route for ${c.req.method} ${c.req.path}.`, [], id),
      404,
    );
  });

  // Every list's `limit` and `cursor`, referenced by each list operation (src/platform/paging.ts).
  app.openAPIRegistry.registerParameter("Limit", LimitParam);
  app.openAPIRegistry.registerParameter("Cursor", CursorParam);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  }

  // Built on the first request (every router is mounted by then) and kept for the isolate; only
  // `servers` follows the request's origin, so no Host header can grow the cache.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get("/openapi.json", (c) => {
    document ??= withCommonErrors(
      app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "agent-edge",
          version: "1.0.0",
          // The SDK's terms (sdk/package.json): no licence is granted; SPDX has no identifier for that.
          license: { name: "MIT", url: "https://opensource.org/license/mit" },
          description:
            "Widget Launch API (create, look up and revoke personal conversation links), the webhook trigger, the chat session API and the management API.",
        },
      }),
      app.openAPIRegistry.definitions,
    );
    return c.json({ ...document, servers: [{ url: new URL(c.req.url).origin }] });
  });
  app.get("/docs", ...docsPage({ specUrl: "/openapi.json", title: "agent-edge API" }));
  app.get("/health", (c) => c.json({ ok: true }));
  return app;
}

/**
 * The methods the app's routes serve at a path, for `Allow` (HEAD wherever GET is, as Hono
 * answers it). Middleware and any-method routes (`ALL`) are not counted.
 * @param routes `app.routes` once every router is mounted
 */
function allowedMethods(routes: readonly { method: string; path: string }[]) {
  const table = routes
    .filter((route) => route.method !== "ALL" && !route.path.endsWith("*"))
    .map((route) => ({
      method: route.method,
      pattern: new RegExp(
        `^${route.path
          .split("/")
          .map((part) =>
            part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
          )
          .join("/")}$`,
      ),
    }));
  return (path: string): string[] => {
    const methods = new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
