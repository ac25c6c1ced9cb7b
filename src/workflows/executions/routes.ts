/**
 * Executions of a workflow: `/v1/manage/workflows/{id}/executions[/{executionId}]` and their
 * replays (docs/api/manage.md, docs/api/webhooks.md, docs/webhooks.md#replay).
 */

import { audited } from "../../audit";
import type { MemberEnv } from "../../auth";
import { writerWithJson } from "../../auth";
import { database } from "../../db/database";
import { createRouter } from "../../platform/app";
import { answers, IdParamSchema, jsonRequest, operations, pathId } from "../../platform/openapi";
import { workflowSchemas } from "../definitions/schemas";
import { assertWorkflow } from "../definitions/workflows";
import { getExecution, listExecutions, replayExecution, replayFailed } from "./executions";

const op = operations("Workflows", "memberToken");

/** A replay route (one execution or a window's failed ones): recorded as the workflow replayed. */
const replayed = <R extends Parameters<typeof audited>[2]>(route: R) =>
  audited("workflow.replayed", { target: ["workflow", "param:id"] }, route);

/**
 * A workflow's executions and replays: a router built by the full app on first use, never at
 * start-up (src/routes.ts).
 */
export function executionsRouter() {
  const {
    BulkReplayInputSchema,
    BulkReplaySchema,
    ExecutionListQuerySchema,
    ExecutionListSchema,
    ExecutionSchema,
    ReplayInputSchema,
  } = workflowSchemas();
  const ExecutionParams = IdParamSchema.extend({
    executionId: pathId("executionId"),
  });

  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/workflows/{id}/executions",
        "listExecutions",
        "List executions, newest first",
      ),
      request: { params: IdParamSchema, query: ExecutionListQuerySchema },
      responses: answers(200, ExecutionListSchema, "Executions", "not_found"),
    },
    async (c) => {
      const id = c.req.valid("param").id;
      const { shardsEver } = await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
      return c.json(await listExecutions(c.env, id, shardsEver, c.req.valid("query")), 200);
    },
  );

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/workflows/{id}/executions/{executionId}",
        "getExecution",
        "Read an execution",
      ),
      request: { params: ExecutionParams },
      responses: answers(200, ExecutionSchema, "The execution", "not_found"),
    },
    async (c) => {
      const { id, executionId } = c.req.valid("param");
      const { shardsEver } = await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
      return c.json(await getExecution(c.env, id, shardsEver, executionId), 200);
    },
  );

  router.openapi(
    replayed({
      ...op(
        "post",
        "/v1/manage/workflows/{id}/executions/{executionId}/replay",
        "replayExecution",
        "Replay an execution: a new one with the same trigger input",
      ),
      description:
        "On the definition the execution ran on (`original`, the default, also with no body) or the workflow's current one. Answers once the new execution is recorded, with its record (`replayOf` names the first). docs/webhooks.md#replay",
      middleware: writerWithJson(4_096, { optional: true }),
      request: {
        params: ExecutionParams,
        body: jsonRequest(ReplayInputSchema, { optional: true }),
      },
      responses: answers(
        201,
        ExecutionSchema,
        "The new execution",
        "not_found",
        "replay_unavailable",
      ),
    }),
    async (c) => {
      const { id, executionId } = c.req.valid("param");
      const { shardsEver } = await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
      // No body at all is validated as `{}` without its defaults: `original` is the default.
      const definition = c.req.valid("json").definition ?? "original";
      return c.json(await replayExecution(c.env, id, shardsEver, executionId, definition), 201);
    },
  );

  router.openapi(
    replayed({
      ...op(
        "post",
        "/v1/manage/workflows/{id}/executions/replay",
        "replayExecutions",
        "Replay the failed executions started in a time window, in the background",
      ),
      description:
        "Queues a replay of every failed execution started from `since` until `until` (default: now), oldest first, at most 1,000 (per runner of a workflow spread over several); they start one after another. docs/webhooks.md#replay",
      middleware: writerWithJson(4_096),
      request: { params: IdParamSchema, body: jsonRequest(BulkReplayInputSchema) },
      responses: answers(202, BulkReplaySchema, "Queued", "not_found"),
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { shardsEver } = await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
      return c.json(await replayFailed(c.env, id, shardsEver, c.req.valid("json")), 202);
    },
  );

  return router;
}
