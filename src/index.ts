/**
 * agent-edge Worker entry: HTTP through the app that serves the path (src/routes.ts), a link's
 * look-up and revocation and a webhook call directly (src/launch/direct-routes.ts,
 * src/workflows/webhook/direct.ts), the queue's deliveries, and the Durable Object classes.
 */

import { ANALYSES_QUEUE, type AnalysisJob, consumeAnalyses } from "./conversations/analysis";
import type { DeliveryMessage } from "./events/contract";
import { consumeDeliveries } from "./events/delivery";
import { directLaunch } from "./launch/direct-routes";
import type { AppBindings } from "./platform/env";
import { appFor } from "./routes";
import { directWebhook } from "./workflows/webhook/direct";

export { Conversation } from "./conversations/conversation/object";
export { LinkLedger } from "./launch/ledger/object";
export { WorkflowRunner } from "./workflows/runner/object";
export { MaintenanceJob } from "./workspace/jobs/object";

/**
 * HTTP through the app; the queues' messages are deliveries of lifecycle events (docs/events.md)
 * and analyses of ended conversations (docs/api/conversations.md#analysis).
 */
export default {
  fetch: (request: Request, env: AppBindings, ctx?: ExecutionContext) =>
    directLaunch(request, env, ctx, () => appFor(request).fetch(request, env, ctx)) ??
    directWebhook(request, env) ??
    appFor(request).fetch(request, env, ctx),
  queue: (batch: MessageBatch<unknown>, env: AppBindings) =>
    batch.queue === ANALYSES_QUEUE
      ? consumeAnalyses(batch as MessageBatch<AnalysisJob>, env)
      : consumeDeliveries(batch as MessageBatch<DeliveryMessage>, env),
} satisfies ExportedHandler<AppBindings, unknown>;
