/** Widget keys: `POST/GET /v1/manage/widget-keys`, `DELETE /v1/manage/widget-keys/{id}` (docs/api/manage.md). */

import type { MemberEnv } from "../auth";
import { createdRoute, removalRoute } from "../auth";
import { database } from "../db/database";
import { linkLedger } from "../launch/ledger/client";
import { createRouter } from "../platform/app";
import { answers, operations } from "../platform/openapi";
import { pageRoute } from "../platform/paging";
import { CreatedWidgetKeySchema, CreateWidgetKeySchema, WidgetKeySchema } from "./schemas";
import { createWidgetKey, listWidgetKeys, revokeWidgetKey } from "./widget-keys";

const op = operations("Widget keys", "memberToken");

/** Widget keys: a router built by the full app on first use, never at start-up (src/routes.ts). */
export function widgetKeysRouter() {
  const router = createRouter<MemberEnv>();

  router.openapi(
    createdRoute(
      "widget_key.created",
      "widget_key",
      op(
        "post",
        "/v1/manage/widget-keys",
        "createWidgetKey",
        "Create a widget key (owners and admins)",
      ),
      32_768,
      CreateWidgetKeySchema,
      answers(201, CreatedWidgetKeySchema, "Created; `key` is shown only here"),
    ),
    async (c) => {
      const member = c.get("member");
      const created = await createWidgetKey(
        database(c.env),
        member.workspaceId,
        member.memberId,
        c.req.valid("json"),
      );
      return c.json(created, 201);
    },
  );

  router.openapi(
    pageRoute(
      op("get", "/v1/manage/widget-keys", "listWidgetKeys", "List widget keys (never the secret)"),
      "WidgetKeyList",
      WidgetKeySchema,
      "Keys, oldest first",
    ),
    async (c) =>
      c.json(
        await listWidgetKeys(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    removalRoute(
      "widget_key.revoked",
      "widget_key",
      op(
        "delete",
        "/v1/manage/widget-keys/{id}",
        "revokeWidgetKey",
        "Revoke a widget key (idempotent)",
      ),
      "Revoked",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      await revokeWidgetKey(linkLedger(c.env, workspaceId), workspaceId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  return router;
}
