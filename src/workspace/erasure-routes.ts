/**
 * Erasure routes (docs/security.md#erasure): `POST /v1/widget/erasures` and
 * `GET /v1/widget/erasures/{id}` with a widget key (the customer's backend, on the person's
 * request), `POST /v1/manage/erasures` (Owners and Admins) and `GET /v1/manage/erasures/{id}`
 * (members). The widget routes sit behind the launch API's checks (browser refusal, key, rate
 * limit), being under `/v1/widget/`.
 */
import { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import { type MemberEnv, writerWithJson } from "../auth";
import type { LaunchEnv } from "../launch";
import { createRouter } from "../platform/app";
import { jsonBody } from "../platform/json-body";
import {
  answers,
  IdParamSchema,
  jsonRequest,
  NoQuerySchema,
  operations,
} from "../platform/openapi";
import { getErasure, requestErasure } from "./erasures";

const RequestErasureSchema = z
  .strictObject({
    externalId: z
      .string()
      .min(1)
      .max(255)
      .openapi({ description: "Your own id for the person, as given in `participant.externalId`" }),
  })
  .openapi("RequestErasure");
const counts = z.object({
  links: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
  executions: z.number().int(),
  events: z.number().int(),
  deliveries: z.number().int(),
});
const ErasureSchema = z
  .object({
    id: z.string().openapi({ example: "era_4kT9xQ2mVb7LcP1sW8nZ3d" }),
    status: z.enum(["running", "succeeded", "failed"]),
    counts: counts.openapi({ description: "What was erased so far" }),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi("Erasure");
const RequestedErasureSchema = ErasureSchema.extend({ externalId: z.string() }).openapi(
  "RequestedErasure",
);

const body = { body: jsonRequest(RequestErasureSchema) };
const widget = operations("Erasures", "widgetKey", "widgetKeyHeader");
const member = operations("Erasures", "memberToken");
const summary = {
  post: "Erase everything of one person, in the background",
  get: "How far an erasure got",
};

/** The widget key's erasure routes, served by the hot app with the launch API (src/routes.ts). */
export const widgetErasures = createRouter<LaunchEnv>();
widgetErasures.openapi(
  audited(
    "erasure.requested",
    { target: ["erasure", "response:id"] },
    {
      ...widget("post", "/v1/widget/erasures", "createErasure", summary.post),
      middleware: jsonBody(4_096),
      request: body,
      responses: answers(202, RequestedErasureSchema, "Started"),
    },
  ),
  async (c) => {
    const { workspaceId } = c.var.widgetKey;
    const { externalId } = c.req.valid("json");
    return c.json(await requestErasure(c.env, workspaceId, externalId), 202);
  },
);
widgetErasures.openapi(
  {
    ...widget("get", "/v1/widget/erasures/{id}", "getErasure", summary.get),
    request: { params: IdParamSchema, query: NoQuerySchema },
    responses: answers(200, ErasureSchema, "The erasure", "not_found"),
  },
  async (c) =>
    c.json(await getErasure(c.env, c.var.widgetKey.workspaceId, c.req.valid("param").id), 200),
);

/** The members' erasure routes: built by the full app on first use (src/routes.ts). */
export function memberErasuresRouter() {
  const router = createRouter<MemberEnv>();
  router.openapi(
    audited(
      "erasure.requested",
      { target: ["erasure", "response:id"] },
      {
        ...member(
          "post",
          "/v1/manage/erasures",
          "createManageErasure",
          `${summary.post} (Owners and Admins)`,
        ),
        middleware: writerWithJson(4_096),
        request: body,
        responses: answers(202, RequestedErasureSchema, "Started"),
      },
    ),
    async (c) => {
      const { externalId } = c.req.valid("json");
      return c.json(await requestErasure(c.env, c.get("member").workspaceId, externalId), 202);
    },
  );
  router.openapi(
    {
      ...member("get", "/v1/manage/erasures/{id}", "getManageErasure", summary.get),
      request: { params: IdParamSchema, query: NoQuerySchema },
      responses: answers(200, ErasureSchema, "The erasure", "not_found"),
    },
    async (c) =>
      c.json(await getErasure(c.env, c.get("member").workspaceId, c.req.valid("param").id), 200),
  );
  return router;
}
