/**
 * agent-edge Worker entry: HTTP through the app that serves the path (src/routes.ts), the queue's
 * deliveries, and the Durable Object classes.
 */

import type { DeliveryMessage } from "./events/contract";
import { consumeDeliveries } from "./events/delivery";
import type { AppBindings } from "./platform/env";
import { appFor } from "./routes";

export { Conversation } from "./conversations/conversation/object";
export { LinkLedger } from "./launch/ledger/object";
export { WorkflowRunner } from "./workflows/runner/object";
export { MaintenanceJob } from "./workspace/jobs/object";

/** HTTP through the app; the queue's messages are deliveries of lifecycle events (docs/events.md). */
export default {
  fetch: (request: Request, env: AppBindings, ctx?: ExecutionContext) =>
    appFor(request).fetch(request, env, ctx),
  queue: consumeDeliveries,
} satisfies ExportedHandler<AppBindings, DeliveryMessage>;
