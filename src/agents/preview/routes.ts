/**
 * `POST /v1/manage/agents/{id}/channels/{channelId}/preview-link` (docs/api/manage.md#widget-preview):
 * any member, with a token or the dashboard's session, gets a link of their own to try the
 * channel's widget. The stand-in page showing it is `GET /app/preview/{linkId}`
 * (src/workspace/dashboard-routes.ts).
 */
import { audited } from "../../audit";
import type { MemberEnv } from "../../auth";
import { database } from "../../db/database";
import { MAX_LAUNCH_BODY_BYTES } from "../../launch";
import { linkLedger } from "../../launch/ledger/client";
import { createRouter } from "../../platform/app";
import { jsonObject } from "../../platform/json";
import { jsonBody } from "../../platform/json-body";
import { errorResponses, jsonRequest, operations } from "../../platform/openapi";
import { appUrl, baseUrl } from "../../platform/origins";
import { openPreviewLink } from "./preview";
import { previewSchemas } from "./schemas";

const op = operations("Agents", "memberToken");

/**
 * The widget preview's link: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function previewRouter() {
  const { PreviewLinkRequestSchema, PreviewLinkSchema, PreviewParamsSchema } = previewSchemas();
  const answer = (description: string) => ({
    description,
    content: { "application/json": { schema: PreviewLinkSchema } },
  });
  const router = createRouter<MemberEnv>();

  router.openapi(
    audited(
      "channel.preview_link_created",
      { target: ["channel", "param:channelId"], statuses: [201] },
      {
        ...op(
          "post",
          "/v1/manage/agents/{id}/channels/{channelId}/preview-link",
          "createChannelPreviewLink",
          "Get a preview link of your own on a widget channel (any member)",
        ),
        middleware: jsonBody(MAX_LAUNCH_BODY_BYTES),
        request: { params: PreviewParamsSchema, body: jsonRequest(PreviewLinkRequestSchema) },
        responses: {
          200: answer("Your live preview link with these values, given again"),
          201: answer("A new preview link; your older live previews on the channel are revoked"),
          ...errorResponses(
            "not_found",
            "invalid_parameters",
            "too_many_pending_links",
            "rate_limited",
          ),
        },
      },
    ),
    async (c) => {
      const input = c.req.valid("json");
      // As the launch API: `__proto__` and the like are unknown parameters, not silently dropped.
      const raw = await c.req.json<{ parameters?: unknown }>();
      const parameters = input.parameters === undefined ? undefined : jsonObject(raw.parameters);
      const { id, channelId } = c.req.valid("param");
      const member = c.get("member");
      const preview = await openPreviewLink(
        {
          db: database(c.env),
          ledger: linkLedger(c.env, member.workspaceId),
          secretsKey: c.env.SECRETS_KEY,
          baseUrl: baseUrl(c.env, c.req.url),
          appUrl: appUrl(c.env, c.req.url),
        },
        member,
        id,
        channelId,
        { ...input, parameters },
      );
      return c.json(preview, preview.reused ? 200 : 201);
    },
  );

  return router;
}
