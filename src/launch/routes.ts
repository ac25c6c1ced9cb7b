/**
 * Widget Launch API: `/v1/widget/launches[/{id}[/end]]` (docs/api/launch.md#operations).
 * Middleware order is the order of checks (docs/api/launch.md#order-of-checks): browser refusal,
 * key, rate limit, body size, JSON and shape; the service does scope, agent and channel,
 * parameters and the pending cap.
 */
import { createRoute } from "@hono/zod-openapi";
import { refuseBrowsers, requireWidgetKey } from "../auth";
import { conversation } from "../conversations/conversation/client";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { fromParsedJson, jsonObject, refusePrototypeKeys } from "../platform/json";
import { jsonBody } from "../platform/json-body";
import { errorResponses, IdParamSchema } from "../platform/openapi";
import { baseUrl } from "../platform/origins";
import { createLink, endLinkConversation, getLink, revokeLink } from "./links";
import { type LaunchEnv, perKeyRateLimit } from "./rate-limit";
import {
  CreatedLaunchSchema,
  CreateLaunchSchema,
  IdempotencyHeadersSchema,
  LaunchListSchema,
  LaunchSchema,
  ListLaunchesQuerySchema,
  MAX_LAUNCH_BODY_BYTES,
} from "./schemas";
import { listLinks } from "./search";

const security: Record<string, string[]>[] = [{ widgetKey: [] }, { widgetKeyHeader: [] }];
const tags = ["Widget launches"];

const createLaunchRoute = createRoute({
  method: "post",
  path: "/v1/widget/launches",
  operationId: "createLaunch",
  tags,
  security,
  summary: "Create a personal conversation link",
  middleware: jsonBody(MAX_LAUNCH_BODY_BYTES),
  request: {
    headers: IdempotencyHeadersSchema,
    body: { required: true, content: { "application/json": { schema: CreateLaunchSchema } } },
  },
  responses: {
    201: {
      description:
        "Link created; `token` is shown only here, and again to a replay of the same idempotent request",
      headers: {
        "Idempotent-Replayed": {
          description: "`true` when this is the stored answer of an earlier call with the same key",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { "application/json": { schema: CreatedLaunchSchema } },
    },
    ...errorResponses(
      "invalid_parameters",
      "forbidden_flow",
      "widget_not_found",
      "too_many_pending_links",
      "idempotency_key_in_use",
      "idempotency_key_reused",
    ),
  },
});

const listLaunchesRoute = createRoute({
  method: "get",
  path: "/v1/widget/launches",
  operationId: "listLaunches",
  tags,
  security,
  summary: "List and search links, newest first",
  request: { query: ListLaunchesQuerySchema },
  responses: {
    200: {
      description: "A page of links the key may see, with their metadata",
      content: { "application/json": { schema: LaunchListSchema } },
    },
    ...errorResponses("forbidden_flow"),
  },
});

const getLaunchRoute = createRoute({
  method: "get",
  path: "/v1/widget/launches/{id}",
  operationId: "getLaunch",
  tags,
  security,
  summary: "Look up a link",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "The link, without its token or parameters",
      content: { "application/json": { schema: LaunchSchema } },
    },
    ...errorResponses("forbidden_flow", "not_found"),
  },
});

const revokeLaunchRoute = createRoute({
  method: "delete",
  path: "/v1/widget/launches/{id}",
  operationId: "revokeLaunch",
  tags,
  security,
  summary: "Revoke a link (idempotent)",
  request: { params: IdParamSchema },
  responses: {
    204: { description: "Revoked, now or before" },
    ...errorResponses("forbidden_flow", "not_found"),
  },
});

const endLaunchRoute = createRoute({
  method: "post",
  path: "/v1/widget/launches/{id}/end",
  operationId: "endLaunch",
  tags,
  security,
  summary: "End the link's conversation without revoking the link (idempotent)",
  request: { params: IdParamSchema },
  responses: {
    204: { description: "Ended, now or before (an ended or revoked link has nothing left to end)" },
    ...errorResponses("forbidden_flow", "not_found", "link_not_open"),
  },
});

export const launches = createRouter<LaunchEnv>();
launches.use("/v1/widget/*", refuseBrowsers, requireWidgetKey, perKeyRateLimit);

launches.openapi(createLaunchRoute, async (c) => {
  const input = c.req.valid("json");
  // The parameters as sent: validation of the object dropped keys such as `__proto__`, which must
  // be refused as unknown parameters, not lost (docs/api/launch.md#parameters).
  const raw = await c.req.json<{ parameters?: unknown; metadata?: unknown }>();
  const parameters = input.parameters === undefined ? undefined : jsonObject(raw.parameters);
  refusePrototypeKeys("metadata", raw.metadata);
  const idempotencyKey = c.req.valid("header")["idempotency-key"];
  const { answer, replayed } = await createLink(
    c.var.ledger,
    c.var.widgetKey,
    { ...input, parameters },
    baseUrl(c.env, c.req.url),
    idempotencyKey === undefined
      ? undefined
      : {
          key: idempotencyKey,
          body: fromParsedJson(await c.req.json()),
          keys: c.env,
        },
  );
  if (replayed) c.header("idempotent-replayed", "true");
  return c.json(answer, 201);
});

launches.openapi(listLaunchesRoute, async (c) => {
  // Counted before the read, so a key over its limit costs no query.
  await c.var.ledger.admit(c.var.widgetKey);
  const page = await listLinks(database(c.env), c.var.widgetKey, c.req.valid("query"), Date.now());
  return c.json(page, 200);
});

launches.openapi(getLaunchRoute, async (c) => {
  return c.json(await getLink(c.var.ledger, c.var.widgetKey, c.req.valid("param").id), 200);
});

launches.openapi(revokeLaunchRoute, async (c) => {
  await revokeLink(c.var.ledger, c.var.widgetKey, c.req.valid("param").id);
  return c.body(null, 204);
});

launches.openapi(endLaunchRoute, async (c) => {
  await endLinkConversation(
    c.var.ledger,
    c.var.widgetKey,
    c.req.valid("param").id,
    (sessionId, now) => conversation(c.env, sessionId).end("server", now),
  );
  return c.body(null, 204);
});
