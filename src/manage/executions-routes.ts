/** Executions of a workflow: `/v1/manage/workflows/{id}/executions[/{executionId}]` (docs/api/manage.md, docs/api/webhooks.md). */

import { createRoute, z } from "@hono/zod-openapi";
import type { MemberEnv } from "../auth/middleware";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { errorResponses, IdParamSchema } from "../platform/openapi";
import { getExecution, listExecutions } from "./executions";
import { ExecutionListQuerySchema, ExecutionListSchema, ExecutionSchema } from "./workflow-schemas";
import { assertWorkflow } from "./workflows";

const common = { tags: ["Workflows"], security: [{ memberToken: [] }] };
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const executionsRouter = createRouter<MemberEnv>();

executionsRouter.openapi(
  createRoute({
    ...common,
    method: "get",
    path: "/v1/manage/workflows/{id}/executions",
    summary: "List executions, newest first",
    request: { params: IdParamSchema, query: ExecutionListQuerySchema },
    responses: {
      200: json(ExecutionListSchema, "Executions"),
      ...errorResponses("not_found"),
    },
  }),
  async (c) => {
    const id = c.req.valid("param").id;
    const { limit, startingAfter } = c.req.valid("query");
    await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
    return c.json(await listExecutions(c.env, id, limit, startingAfter), 200);
  },
);

executionsRouter.openapi(
  createRoute({
    ...common,
    method: "get",
    path: "/v1/manage/workflows/{id}/executions/{executionId}",
    summary: "Read an execution",
    request: {
      params: IdParamSchema.extend({
        executionId: z
          .string()
          .min(1)
          .max(64)
          .openapi({ param: { name: "executionId", in: "path" } }),
      }),
    },
    responses: { 200: json(ExecutionSchema, "The execution"), ...errorResponses("not_found") },
  }),
  async (c) => {
    const { id, executionId } = c.req.valid("param");
    await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
    return c.json(await getExecution(c.env, id, executionId), 200);
  },
);
