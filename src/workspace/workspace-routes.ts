/**
 * `GET /v1/manage/workspace` (any member) and `PATCH /v1/manage/workspace` (Owners and Admins):
 * the workspace's settings, today its retention (docs/api/manage.md#workspace,
 * docs/security.md#retention).
 */
import { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import { type MemberEnv, writerWithJson } from "../auth";
import { MAX_RETENTION_DAYS, RETENTION_DEFAULTS } from "../db/retention";
import { createRouter } from "../platform/app";
import { answers, jsonRequest, NoQuerySchema, operations } from "../platform/openapi";
import { getWorkspace, updateRetention } from "./workspace";

const days = (what: string, fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_RETENTION_DAYS)
    .openapi({ description: `Days ${what} is kept; default ${fallback}` });

/** The workspace's settings: a router built by the full app on first use (src/routes.ts). */
export function workspaceRouter() {
  const fields = {
    conversationDays: days(
      "an ended conversation's transcript",
      RETENTION_DEFAULTS.conversationDays,
    ),
    executionDays: days("a finished execution", RETENTION_DEFAULTS.executionDays),
    requestLogDays: days("a webhook call's request log entry", RETENTION_DEFAULTS.requestLogDays),
    eventDays: days("a lifecycle event with its deliveries", RETENTION_DEFAULTS.eventDays),
  };
  const RetentionSchema = z.object(fields).openapi("Retention");
  const WorkspaceSettingsSchema = z
    .object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      createdAt: z.string(),
      retention: RetentionSchema,
    })
    .openapi("WorkspaceSettings");
  const UpdateWorkspaceSchema = z
    .strictObject({ retention: z.strictObject(fields).partial() })
    .openapi("UpdateWorkspace");
  const op = operations("Workspace", "memberToken");
  const PATH = "/v1/manage/workspace";

  const router = createRouter<MemberEnv>();
  router.openapi(
    {
      ...op("get", PATH, "getWorkspace", "The workspace and its settings"),
      request: { query: NoQuerySchema },
      responses: answers(200, WorkspaceSettingsSchema, "The workspace"),
    },
    async (c) => c.json(await getWorkspace(c.env, c.get("member").workspaceId), 200),
  );
  router.openapi(
    audited(
      "workspace.updated",
      { target: ["workspace", "response:id"] },
      {
        ...op(
          "patch",
          PATH,
          "updateWorkspace",
          "Change the workspace's retention (Owners and Admins)",
        ),
        middleware: writerWithJson(4_096),
        request: { body: jsonRequest(UpdateWorkspaceSchema) },
        responses: answers(200, WorkspaceSettingsSchema, "The changed workspace"),
      },
    ),
    async (c) => {
      const { retention } = c.req.valid("json");
      return c.json(await updateRetention(c.env, c.get("member").workspaceId, retention), 200);
    },
  );
  return router;
}
