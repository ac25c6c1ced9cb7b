/**
 * `GET /v1/manage/usage` (docs/api/manage.md#usage): how close the workspace is to its limits, as
 * its link ledger counts them: pending, unexpired links against the cap. Any member may read it.
 */
import { z } from "@hono/zod-openapi";
import type { MemberEnv } from "../auth";
import { linkLedger } from "../launch/ledger/client";
import { createRouter } from "../platform/app";
import { answers, NoQuerySchema, operations } from "../platform/openapi";

const op = operations("Workspace", "memberToken");

/** Usage: a router built by the full app on first use, never at start-up (src/routes.ts). */
export function usageRouter() {
  const UsageSchema = z
    .object({
      pendingLinks: z.number().int().openapi({ description: "Links pending and unexpired now" }),
      maxPendingLinks: z
        .number()
        .int()
        .openapi({ description: "The cap; creates past it get 409" }),
    })
    .openapi("Usage");

  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...op("get", "/v1/manage/usage", "getUsage", "The workspace's usage of its limits"),
      request: { query: NoQuerySchema },
      responses: answers(200, UsageSchema, "Usage"),
    },
    async (c) => {
      const { workspaceId } = c.get("member");
      return c.json(await linkLedger(c.env, workspaceId).usage(workspaceId), 200);
    },
  );

  return router;
}
