/**
 * Operator API, with the OPERATOR_TOKEN secret (docs/api/manage.md#operator): `POST
 * /v1/operator/workspaces` and `DELETE /v1/operator/workspaces/{id}`.
 */

import { createRoute } from "@hono/zod-openapi";
import { audited } from "../audit";
import { requireOperator } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { jsonBody } from "../platform/json-body";
import { answers, IdParamSchema, jsonRequest, noContent, operations } from "../platform/openapi";
import { appUrl } from "../platform/origins";
import { createWorkspace } from "./members";
import { CreatedWorkspaceSchema, CreateWorkspaceSchema } from "./schemas";
import { deleteWorkspace } from "./workspace-deletion";

const op = operations("Operator", "operatorToken");

/**
 * The operator API: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function operatorRouter() {
  const createWorkspaceRoute = createRoute(
    audited(
      "workspace.created",
      { target: ["workspace", "response:workspace.id"], workspace: "response:workspace.id" },
      {
        ...op(
          "post",
          "/v1/operator/workspaces",
          "createWorkspace",
          "Create a workspace with its owner",
        ),
        middleware: [requireOperator, ...jsonBody(32_768)],
        request: { body: jsonRequest(CreateWorkspaceSchema) },
        responses: answers(
          201,
          CreatedWorkspaceSchema,
          "Created; memberToken is shown once",
          "slug_taken",
        ),
      },
    ),
  );

  // The workspace's own log goes with it; this entry is in the operator's log.
  const deleteWorkspaceRoute = createRoute(
    audited(
      "workspace.deleted",
      { target: ["workspace", "param:id"] },
      {
        ...op(
          "delete",
          "/v1/operator/workspaces/{id}",
          "deleteWorkspace",
          "Delete a workspace and everything in it",
        ),
        middleware: [requireOperator],
        request: { params: IdParamSchema },
        responses: noContent("Deleted", "not_found"),
      },
    ),
  );

  const router = createRouter();

  router.openapi(createWorkspaceRoute, async (c) =>
    c.json(
      await createWorkspace(database(c.env), c.req.valid("json"), appUrl(c.env, c.req.url)),
      201,
    ),
  );

  router.openapi(deleteWorkspaceRoute, async (c) => {
    await deleteWorkspace(c.env, c.req.valid("param").id);
    return c.body(null, 204);
  });

  return router;
}
