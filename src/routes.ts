/**
 * The Worker's routing table. The calls the service exists for (the launch API, the webhook
 * trigger, the chat and `/health`) are served by an app built as the isolate starts; every other
 * route (the management and operator API, sign-in, the dashboard, `/docs` and `/openapi.json`) by
 * the full app, built on the first request that needs one, so a new isolate serving webhooks or
 * launches never builds the management API's schemas and routes (docs/performance.md#start-up).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { getPath } from "hono/utils/url";
import { previewRouter } from "./agents/preview/routes";
import { agentsRouter } from "./agents/routes";
import { requireMember } from "./auth/middleware";
import { passkeySignInRouter, passkeysRouter } from "./auth/passkey-routes";
import { refuseQueryCredentials } from "./auth/query-credentials";
import { signInLinksRouter, signInPagesRouter } from "./auth/sign-in-routes";
import { chatRouter } from "./conversations/routes";
import { deliveriesRouter } from "./events/delivery-log-routes";
import { eventEndpointsRouter } from "./events/routes";
import { linksRouter } from "./launch/member-links-routes";
import { launches } from "./launch/routes";
import { type AppEnv, createApp } from "./platform/app";
import { once } from "./platform/once";
import { workflowsRouter } from "./workflows/definitions/routes";
import { executionsRouter } from "./workflows/executions/routes";
import { requestsRouter } from "./workflows/request-log/routes";
import { secretsRouter } from "./workflows/secrets/routes";
import { webhooksRouter } from "./workflows/webhook/routes";
import { auditLogRouter } from "./workspace/audit-log-routes";
import { dashboardRouter } from "./workspace/dashboard-routes";
import { memberErasuresRouter, widgetErasures } from "./workspace/erasure-routes";
import { membersRouter } from "./workspace/members-routes";
import { metricsRouter } from "./workspace/metrics-routes";
import { operatorRouter } from "./workspace/operator-routes";
import { resealRouter } from "./workspace/reseal-routes";
import { usageRouter } from "./workspace/usage-routes";
import { widgetKeysRouter } from "./workspace/widget-keys-routes";
import { workspaceRouter } from "./workspace/workspace-routes";

// biome-ignore lint/suspicious/noExplicitAny: routers differ in their Variables (MemberEnv).
type Router = OpenAPIHono<any>;

/** An app with the cross-cutting middleware and `routers` mounted in this order. */
function appWith(routers: Router[]): OpenAPIHono<AppEnv> {
  const app = createApp();
  app.use("/v1/*", refuseQueryCredentials);
  app.use("/v1/manage/*", requireMember);
  for (const router of routers) app.route("/", router);
  return app;
}

/**
 * The paths the hot app serves, and only it: a test checks every route of the full app against
 * it, so a route added under one of these prefixes to any other router fails.
 */
export const HOT_PATH =
  /^\/(?:v1\/widget\/|v1\/chat\/|webhooks\/|webhook-test\/|chat$|chat\/embed\/|health$)/;

/** The launch API, the webhook trigger and the chat, built at start-up. */
export const hotApp = appWith([launches, widgetErasures, webhooksRouter, chatRouter]);

/**
 * Every route, in the order the OpenAPI document lists them; built on first use.
 */
export const fullApp = once(() =>
  appWith([
    launches,
    widgetErasures,
    operatorRouter(),
    resealRouter(),
    membersRouter(),
    widgetKeysRouter(),
    agentsRouter(),
    previewRouter(),
    secretsRouter(),
    workflowsRouter(),
    executionsRouter(),
    requestsRouter(),
    signInLinksRouter(),
    signInPagesRouter(),
    passkeysRouter(),
    passkeySignInRouter(),
    dashboardRouter(),
    usageRouter(),
    metricsRouter(),
    workspaceRouter(),
    linksRouter(),
    memberErasuresRouter(),
    eventEndpointsRouter(),
    deliveriesRouter(),
    auditLogRouter(),
    webhooksRouter,
    chatRouter,
  ]),
);

/** The app that serves `request`: the hot app for its paths, the full app for any other. */
export function appFor(request: Request): OpenAPIHono<AppEnv> {
  return HOT_PATH.test(getPath(request)) ? hotApp : fullApp();
}
