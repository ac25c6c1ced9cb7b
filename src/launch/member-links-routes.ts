/**
 * Links for members (docs/api/manage.md#links): `GET /v1/manage/links[/{id}]`, and for Owners and
 * Admins `DELETE /v1/manage/links/{id}` and `POST /v1/manage/links/{id}/end`. The same services as
 * the launch API's, over the whole workspace; the look-up adds the conversation's messages.
 */
import { audited } from "../audit";
import type { MemberEnv } from "../auth";
import { removalRoute, requireWriter } from "../auth";
import { conversation } from "../conversations/conversation/client";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { answers, errorResponses, IdParamSchema, operations } from "../platform/openapi";
import { linkLedger } from "./ledger/client";
import { LinkDetailSchema } from "./link-detail-schema";
import {
  endWorkspaceLink,
  getWorkspaceLink,
  listWorkspaceLinks,
  revokeWorkspaceLink,
} from "./member-links";
import { LaunchListSchema, ListLaunchesQuerySchema } from "./schemas";

const op = operations("Links", "memberToken");

/**
 * Links for members: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function linksRouter() {
  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/links",
        "listLinks",
        "List and search the workspace's links, newest first",
      ),
      request: { query: ListLaunchesQuerySchema },
      responses: answers(
        200,
        LaunchListSchema,
        "A page of links with their metadata, as the launch API lists them",
      ),
    },
    async (c) => {
      const { workspaceId } = c.get("member");
      return c.json(
        await listWorkspaceLinks(database(c.env), workspaceId, c.req.valid("query")),
        200,
      );
    },
  );

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/links/{id}",
        "getLink",
        "Look up a link with its conversation's messages",
      ),
      request: { params: IdParamSchema },
      responses: answers(
        200,
        LinkDetailSchema,
        "The link, without its token or parameters, and the messages once opened",
        "not_found",
      ),
    },
    async (c) => {
      const { workspaceId } = c.get("member");
      const link = await getWorkspaceLink(
        database(c.env),
        linkLedger(c.env, workspaceId),
        workspaceId,
        c.req.valid("param").id,
        (sessionId) => conversation(c.env, sessionId).transcript(),
      );
      return c.json(link, 200);
    },
  );

  router.openapi(
    removalRoute(
      "link.revoked",
      "link",
      op(
        "delete",
        "/v1/manage/links/{id}",
        "revokeLink",
        "Revoke a link (owners and admins; idempotent)",
      ),
      "Revoked, now or before; an open chat is closed at once",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      const ledger = linkLedger(c.env, workspaceId);
      await revokeWorkspaceLink(database(c.env), ledger, workspaceId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  router.openapi(
    audited(
      "link.ended",
      { target: ["link", "param:id"] },
      {
        ...op(
          "post",
          "/v1/manage/links/{id}/end",
          "endLink",
          "End the link's conversation without revoking the link (owners and admins)",
        ),
        middleware: [requireWriter],
        request: { params: IdParamSchema },
        responses: {
          204: {
            description: "Ended, now or before (an ended or revoked link has nothing left to end)",
          },
          ...errorResponses("not_found", "link_not_open"),
        },
      },
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      await endWorkspaceLink(
        database(c.env),
        linkLedger(c.env, workspaceId),
        workspaceId,
        c.req.valid("param").id,
        (sessionId, now) => conversation(c.env, sessionId).end("server", now),
      );
      return c.body(null, 204);
    },
  );

  return router;
}
