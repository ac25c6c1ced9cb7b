/** Workflows: `/v1/manage/workflows[/{id}[/start|/stop]]` (docs/api/manage.md); executions are in `executions.ts`. */

import type { Context } from "hono";
import { audited } from "../../audit";
import type { MemberEnv } from "../../auth";
import { removalRoute, requireWriter, writerWithJson } from "../../auth";
import { database } from "../../db/database";
import { createRouter } from "../../platform/app";
import type { AppBindings } from "../../platform/env";
import { answers, IdParamSchema, jsonRequest, operations, readRoute } from "../../platform/openapi";
import { appUrl } from "../../platform/origins";
import { listQuery, pageSchema } from "../../platform/paging";
import { WORKFLOW_NODE, workflowNodeSchema } from "../nodes/models";
import { onEveryShard } from "../runner/client";
import { type WorkflowInput, workflowSchemas } from "./schemas";
import {
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  listWorkflows,
  replaceWorkflow,
  setWorkflowStatus,
} from "./workflows";

const op = operations("Workflows", "memberToken");

// Every shard that ever ran re-reads the workflow (docs/scaling.md#runner-shards).
const notify = (env: AppBindings) => async (workflowId: string, shards: number) => {
  await onEveryShard(env, workflowId, shards, (runner) => runner.configure(workflowId));
};

/**
 * The create or replace body with its nodes and connections as sent. zod's records leave out an
 * own `__proto__` key (JSON.parse makes one); `parseDefinition` must see it to refuse it as
 * `unknown_field`, as it does any other key no node or connection takes.
 */
async function definitionAsSent(c: Context, input: WorkflowInput): Promise<WorkflowInput> {
  const raw = await c.req.json<Pick<WorkflowInput, "nodes" | "connections">>();
  return { ...input, nodes: raw.nodes, connections: raw.connections ?? [] };
}

/** Workflows: a router built by the full app on first use, never at start-up (src/routes.ts). */
export function workflowsRouter() {
  const { WorkflowInputSchema, WorkflowSchema } = workflowSchemas();
  const body = {
    body: jsonRequest(WorkflowInputSchema),
  };

  const PageQuerySchema = listQuery();
  const router = createRouter<MemberEnv>();

  // Workflow bodies and responses only point at the node union (workflow-schemas.ts): register it.
  router.openAPIRegistry.register(WORKFLOW_NODE, workflowNodeSchema());

  router.openapi(
    audited(
      "workflow.created",
      { target: ["workflow", "response:id"] },
      {
        ...op("post", "/v1/manage/workflows", "createWorkflow", "Create a workflow (stopped)"),
        middleware: writerWithJson(262_144),
        request: body,
        responses: answers(201, WorkflowSchema, "Created", "slug_taken"),
      },
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      const created = await createWorkflow(
        database(c.env),
        workspaceId,
        await definitionAsSent(c, c.req.valid("json")),
        appUrl(c.env, c.req.url),
      );
      return c.json(created, 201);
    },
  );

  router.openapi(
    {
      ...op("get", "/v1/manage/workflows", "listWorkflows", "List workflows"),
      request: { query: PageQuerySchema },
      responses: answers(
        200,
        pageSchema("WorkflowList", WorkflowSchema),
        "Workflows, oldest first",
      ),
    },
    async (c) =>
      c.json(
        await listWorkflows(
          database(c.env),
          c.get("member").workspaceId,
          appUrl(c.env, c.req.url),
          c.req.valid("query"),
        ),
        200,
      ),
  );

  router.openapi(
    readRoute(
      op("get", "/v1/manage/workflows/{id}", "getWorkflow", "Read a workflow"),
      WorkflowSchema,
      "The workflow",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      return c.json(
        await getWorkflow(
          database(c.env),
          workspaceId,
          c.req.valid("param").id,
          appUrl(c.env, c.req.url),
        ),
        200,
      );
    },
  );

  router.openapi(
    audited(
      "workflow.updated",
      { target: ["workflow", "param:id"] },
      {
        ...op(
          "put",
          "/v1/manage/workflows/{id}",
          "updateWorkflow",
          "Replace a workflow's name, slug and definition",
        ),
        middleware: writerWithJson(262_144),
        request: { params: IdParamSchema, ...body },
        responses: answers(200, WorkflowSchema, "The workflow", "not_found", "slug_taken"),
      },
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      const replaced = await replaceWorkflow(
        database(c.env),
        notify(c.env),
        workspaceId,
        c.req.valid("param").id,
        await definitionAsSent(c, c.req.valid("json")),
        appUrl(c.env, c.req.url),
      );
      return c.json(replaced, 200);
    },
  );

  router.openapi(
    removalRoute(
      "workflow.deleted",
      "workflow",
      op(
        "delete",
        "/v1/manage/workflows/{id}",
        "deleteWorkflow",
        "Delete a workflow and its executions",
      ),
      "Deleted",
      "not_found",
    ),
    async (c) => {
      await deleteWorkflow(
        database(c.env),
        notify(c.env),
        c.get("member").workspaceId,
        c.req.valid("param").id,
      );
      return c.body(null, 204);
    },
  );

  for (const [action, status, recorded] of [
    ["start", "running", "workflow.started"],
    ["stop", "stopped", "workflow.stopped"],
  ] as const) {
    router.openapi(
      audited(
        recorded,
        { target: ["workflow", "param:id"] },
        {
          ...op(
            "post",
            `/v1/manage/workflows/{id}/${action}`,
            `${action}Workflow`,
            action === "start"
              ? "Start: its webhooks accept requests"
              : "Stop: its webhooks accept nothing",
          ),
          middleware: [requireWriter],
          request: { params: IdParamSchema },
          responses: answers(200, WorkflowSchema, "The workflow", "not_found"),
        },
      ),
      async (c) => {
        const { workspaceId } = c.get("member");
        const id = c.req.valid("param").id;
        const view = await setWorkflowStatus(
          database(c.env),
          notify(c.env),
          workspaceId,
          id,
          status,
          appUrl(c.env, c.req.url),
        );
        return c.json(view, 200);
      },
    );
  }

  return router;
}
