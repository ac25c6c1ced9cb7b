/**
 * Members: `POST/GET /v1/manage/members`, `PATCH/DELETE /v1/manage/members/{id}`, `GET
 * /v1/manage/me` (docs/api/manage.md#members).
 */

import { createRoute, z } from "@hono/zod-openapi";
import { audited } from "../audit";
import type { MemberEnv } from "../auth";
import { requireWriter } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { jsonBody } from "../platform/json-body";
import { errorResponses, IdParamSchema, NoQuerySchema } from "../platform/openapi";
import { appUrl } from "../platform/origins";
import { listQuery, pageSchema } from "../platform/paging";
import { changeMemberRole, createMember, listMembers, removeMember, whoAmI } from "./members";
import {
  ChangeMemberRoleSchema,
  CreatedMemberSchema,
  CreateMemberSchema,
  MemberSchema,
  WorkspaceSchema,
} from "./schemas";

const common = { tags: ["Members"], security: [{ memberToken: [] }] };

/**
 * Members and the workspace: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function membersRouter() {
  const PageQuerySchema = listQuery();
  const router = createRouter<MemberEnv>();

  router.openapi(
    createRoute(
      audited(
        "member.invited",
        { target: ["member", "response:member.id"] },
        {
          ...common,
          method: "post",
          path: "/v1/manage/members",
          operationId: "createMember",
          summary: "Add an admin or member",
          middleware: [requireWriter, ...jsonBody(32_768)],
          request: {
            body: {
              required: true,
              content: { "application/json": { schema: CreateMemberSchema } },
            },
          },
          responses: {
            201: {
              description: "Added; memberToken is shown once",
              content: { "application/json": { schema: CreatedMemberSchema } },
            },
            ...errorResponses("member_exists"),
          },
        },
      ),
    ),
    async (c) =>
      c.json(
        await createMember(
          database(c.env),
          c.get("member").workspaceId,
          c.req.valid("json"),
          appUrl(c.env, c.req.url),
        ),
        201,
      ),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/v1/manage/members",
      operationId: "listMembers",
      summary: "List members",
      request: { query: PageQuerySchema },
      responses: {
        200: {
          description: "Members, oldest first",
          content: { "application/json": { schema: pageSchema("MemberList", MemberSchema) } },
        },
        ...errorResponses(),
      },
    }),
    async (c) =>
      c.json(
        await listMembers(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/v1/manage/me",
      operationId: "getMe",
      summary: "The caller and its workspace",
      request: { query: NoQuerySchema },
      responses: {
        200: {
          description: "The caller",
          content: {
            "application/json": {
              schema: z.object({ member: MemberSchema, workspace: WorkspaceSchema }).openapi("Me"),
            },
          },
        },
        ...errorResponses(),
      },
    }),
    async (c) => {
      const { workspaceId, memberId } = c.get("member");
      return c.json(await whoAmI(database(c.env), workspaceId, memberId), 200);
    },
  );

  router.openapi(
    createRoute(
      audited(
        "member.removed",
        { target: ["member", "param:id"] },
        {
          ...common,
          method: "delete",
          path: "/v1/manage/members/{id}",
          operationId: "deleteMember",
          summary: "Remove a member; their token stops working, keys they created keep working",
          middleware: [requireWriter],
          request: { params: IdParamSchema },
          responses: {
            204: { description: "Removed" },
            ...errorResponses("not_found", "cannot_remove_owner"),
          },
        },
      ),
    ),
    async (c) => {
      await removeMember(database(c.env), c.get("member").workspaceId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  router.openapi(
    createRoute(
      audited(
        "member.role_changed",
        { target: ["member", "param:id"] },
        {
          ...common,
          method: "patch",
          path: "/v1/manage/members/{id}",
          operationId: "updateMember",
          summary: "Change a member's role to admin or member; the owner's cannot be changed",
          middleware: [requireWriter, ...jsonBody(32_768)],
          request: {
            params: IdParamSchema,
            body: {
              required: true,
              content: { "application/json": { schema: ChangeMemberRoleSchema } },
            },
          },
          responses: {
            200: {
              description: "The member with the new role, which applies from their next request",
              content: { "application/json": { schema: MemberSchema } },
            },
            ...errorResponses("not_found", "cannot_change_owner"),
          },
        },
      ),
    ),
    async (c) =>
      c.json(
        await changeMemberRole(
          database(c.env),
          c.get("member").workspaceId,
          c.req.valid("param").id,
          c.req.valid("json").role,
        ),
        200,
      ),
  );

  return router;
}
