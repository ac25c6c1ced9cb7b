/**
 * Members: `POST/GET /v1/manage/members`, `PATCH/DELETE /v1/manage/members/{id}`, `GET
 * /v1/manage/me` (docs/api/manage.md#members).
 */

import { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import type { MemberEnv } from "../auth";
import { changeRoute, removalRoute, writerWithJson } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { answers, jsonRequest, NoQuerySchema, operations } from "../platform/openapi";
import { appUrl } from "../platform/origins";
import { pageRoute } from "../platform/paging";
import { changeMemberRole, createMember, listMembers, removeMember, whoAmI } from "./members";
import {
  ChangeMemberRoleSchema,
  CreatedMemberSchema,
  CreateMemberSchema,
  MemberSchema,
  WorkspaceSchema,
} from "./schemas";

const op = operations("Members", "memberToken");

/**
 * Members and the workspace: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function membersRouter() {
  const router = createRouter<MemberEnv>();

  router.openapi(
    audited(
      "member.invited",
      { target: ["member", "response:member.id"] },
      {
        ...op("post", "/v1/manage/members", "createMember", "Add an admin or member"),
        middleware: writerWithJson(32_768),
        request: { body: jsonRequest(CreateMemberSchema) },
        responses: answers(
          201,
          CreatedMemberSchema,
          "Added; memberToken is shown once",
          "member_exists",
        ),
      },
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
    pageRoute(
      op("get", "/v1/manage/members", "listMembers", "List members"),
      "MemberList",
      MemberSchema,
      "Members, oldest first",
    ),
    async (c) =>
      c.json(
        await listMembers(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    {
      ...op("get", "/v1/manage/me", "getMe", "The caller and its workspace"),
      request: { query: NoQuerySchema },
      responses: answers(
        200,
        z.object({ member: MemberSchema, workspace: WorkspaceSchema }).openapi("Me"),
        "The caller",
      ),
    },
    async (c) => {
      const { workspaceId, memberId } = c.get("member");
      return c.json(await whoAmI(database(c.env), workspaceId, memberId), 200);
    },
  );

  router.openapi(
    removalRoute(
      "member.removed",
      "member",
      op(
        "delete",
        "/v1/manage/members/{id}",
        "deleteMember",
        "Remove a member; their token stops working, keys they created keep working",
      ),
      "Removed",
      "not_found",
      "cannot_remove_owner",
    ),
    async (c) => {
      await removeMember(database(c.env), c.get("member").workspaceId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  router.openapi(
    changeRoute(
      "member.role_changed",
      "member",
      op(
        "patch",
        "/v1/manage/members/{id}",
        "updateMember",
        "Change a member's role to admin or member; the owner's cannot be changed",
      ),
      32_768,
      ChangeMemberRoleSchema,
      MemberSchema,
      "The member with the new role, which applies from their next request",
      "not_found",
      "cannot_change_owner",
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
