/**
 * agent-edge Worker entry: builds the app, mounts the routers, exports the Durable Object classes.
 */

import { requireMember } from "./auth/middleware";
import { passkeySignInRouter, passkeysRouter } from "./auth/passkey-routes";
import { refuseQueryCredentials } from "./auth/query-credentials";
import { signInLinksRouter, signInPagesRouter } from "./auth/sign-in-routes";
import { chatRouter } from "./conversations/routes";
import { deliveriesRouter } from "./events/deliveries-routes";
import { consumeDeliveries } from "./events/delivery";
import { eventEndpointsRouter } from "./events/routes";
import type { DeliveryMessage } from "./events/types";
import { launches } from "./launch/routes";
import { agentsRouter } from "./manage/agents-routes";
import { dashboardRouter } from "./manage/dashboard-routes";
import { executionsRouter } from "./manage/executions-routes";
import { linksRouter } from "./manage/links-routes";
import { membersRouter } from "./manage/members-routes";
import { operator } from "./manage/operator-routes";
import { previewRouter } from "./manage/preview-routes";
import { requestsRouter } from "./manage/requests-routes";
import { secretsRouter } from "./manage/secrets-routes";
import { usageRouter } from "./manage/usage-routes";
import { widgetKeysRouter } from "./manage/widget-keys-routes";
import { workflowsRouter } from "./manage/workflows-routes";
import { createApp } from "./platform/app";
import type { AppBindings } from "./platform/env";
import { webhooksRouter } from "./webhooks/routes";

export { Conversation } from "./conversations/conversation/object";
export { LinkLedger } from "./launch/ledger/object";
export { WorkflowRunner } from "./webhooks/runner/object";

const app = createApp();
app.use("/v1/*", refuseQueryCredentials);
app.use("/v1/manage/*", requireMember);
app.route("/", launches);
app.route("/", operator);
app.route("/", membersRouter);
app.route("/", widgetKeysRouter);
app.route("/", agentsRouter);
app.route("/", previewRouter);
app.route("/", secretsRouter);
app.route("/", workflowsRouter);
app.route("/", executionsRouter);
app.route("/", requestsRouter);
app.route("/", signInLinksRouter);
app.route("/", signInPagesRouter);
app.route("/", passkeysRouter);
app.route("/", passkeySignInRouter);
app.route("/", dashboardRouter);
app.route("/", usageRouter);
app.route("/", linksRouter);
app.route("/", eventEndpointsRouter);
app.route("/", deliveriesRouter);
app.route("/", webhooksRouter);
app.route("/", chatRouter);

/** HTTP through the app; the queue's messages are deliveries of lifecycle events (docs/events.md). */
export default {
  fetch: app.fetch,
  queue: consumeDeliveries,
} satisfies ExportedHandler<AppBindings, DeliveryMessage>;
