/**
 * The delivery log of an event endpoint (docs/events.md#delivery-log):
 * `GET /v1/manage/event-endpoints/{id}/deliveries`, `POST …/deliveries/{deliveryId}/resend`,
 * `POST …/recover` and `POST …/test`. Members read; owners and admins act.
 */
import { audited } from "../audit";
import { type MemberEnv, requireWriter, writerWithJson } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { answers, IdParamSchema, jsonRequest, operations, pathId } from "../platform/openapi";
import { listDeliveries, recoverDeliveries, resendDelivery, sendTestEvent } from "./delivery-log";
import { eventSchemas } from "./schemas";

const op = operations("Event endpoints", "memberToken");
const PATH = "/v1/manage/event-endpoints/{id}";

/**
 * An event endpoint's deliveries: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function deliveriesRouter() {
  const {
    DeliveryListSchema,
    DeliverySchema,
    ListDeliveriesQuerySchema,
    RecoveredSchema,
    RecoverSchema,
  } = eventSchemas();
  const DeliveryParamsSchema = IdParamSchema.extend({
    deliveryId: pathId("deliveryId", 100),
  });

  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...op(
        "get",
        `${PATH}/deliveries`,
        "listDeliveries",
        "The endpoint's deliveries, newest first, each with its attempts",
      ),
      request: { params: IdParamSchema, query: ListDeliveriesQuerySchema },
      responses: answers(200, DeliveryListSchema, "A page of deliveries", "not_found"),
    },
    async (c) => {
      const { workspaceId } = c.get("member");
      const page = await listDeliveries(
        database(c.env),
        workspaceId,
        c.req.valid("param").id,
        c.req.valid("query"),
      );
      return c.json(page, 200);
    },
  );

  router.openapi(
    audited(
      "event_delivery.resent",
      { target: ["event_delivery", "param:deliveryId"] },
      {
        ...op(
          "post",
          `${PATH}/deliveries/{deliveryId}/resend`,
          "resendDelivery",
          "Send a delivery again now, its retry schedule started afresh",
        ),
        middleware: [requireWriter],
        request: { params: DeliveryParamsSchema },
        responses: answers(
          202,
          DeliverySchema,
          "Queued; the delivery as it is now",
          "not_found",
          "endpoint_disabled",
        ),
      },
    ),
    async (c) => {
      const { id, deliveryId } = c.req.valid("param");
      return c.json(await resendDelivery(c.env, c.get("member").workspaceId, id, deliveryId), 202);
    },
  );

  router.openapi(
    audited(
      "event_endpoint.recovered",
      { target: ["event_endpoint", "param:id"] },
      {
        ...op(
          "post",
          `${PATH}/recover`,
          "recoverDeliveries",
          "Send again every failed delivery created since a time",
        ),
        middleware: writerWithJson(1_024),
        request: { params: IdParamSchema, body: jsonRequest(RecoverSchema) },
        responses: answers(202, RecoveredSchema, "Queued", "not_found", "endpoint_disabled"),
      },
    ),
    async (c) => {
      const since = Date.parse(c.req.valid("json").since);
      const recovered = await recoverDeliveries(
        c.env,
        c.get("member").workspaceId,
        c.req.valid("param").id,
        since,
      );
      return c.json({ recovered }, 202);
    },
  );

  router.openapi(
    audited(
      "event_endpoint.test_sent",
      { target: ["event_endpoint", "param:id"] },
      {
        ...op(
          "post",
          `${PATH}/test`,
          "testEventEndpoint",
          "Send an event.test event now; answers with its delivery after the attempt",
        ),
        middleware: [requireWriter],
        request: { params: IdParamSchema },
        responses: answers(200, DeliverySchema, "The delivery, with its one attempt", "not_found"),
      },
    ),
    async (c) =>
      c.json(await sendTestEvent(c.env, c.get("member").workspaceId, c.req.valid("param").id), 200),
  );

  return router;
}
