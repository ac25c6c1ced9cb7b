/**
 * agent-edge Worker entry: builds the app, mounts the routers, exports the Durable Object classes.
 */
import { createApp } from "./app";
import { requireMember } from "./middleware/auth";
import { agentsRouter } from "./routes/agents";
import { chatRouter } from "./routes/chat";
import { executionsRouter } from "./routes/executions";
import { launches } from "./routes/launches";
import { membersRouter } from "./routes/members";
import { operator } from "./routes/operator";
import { secretsRouter } from "./routes/secrets";
import { webhooksRouter } from "./routes/webhooks";
import { widgetKeysRouter } from "./routes/widget-keys";
import { workflowsRouter } from "./routes/workflows";

export { Conversation } from "./durable-objects/conversation";
export { WorkflowRunner } from "./durable-objects/workflow-runner";
export { WorkspaceLimiter } from "./durable-objects/workspace-limiter";

const app = createApp();
app.use("/v1/manage/*", requireMember);
app.route("/", launches);
app.route("/", operator);
app.route("/", membersRouter);
app.route("/", widgetKeysRouter);
app.route("/", agentsRouter);
app.route("/", secretsRouter);
app.route("/", workflowsRouter);
app.route("/", executionsRouter);
app.route("/", webhooksRouter);
app.route("/", chatRouter);

export default app;
