/**
 * Event endpoints of the management API: `/v1/manage/event-endpoints[/{id}[/rotate-secret]]`
 * (docs/events.md#event-endpoints). Members read; owners and admins register, change, rotate and
 * delete. Never a widget key (it is refused on every management route).
 */
import { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import { changeRoute, createdRoute, type MemberEnv, removalRoute, requireWriter } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { answers, IdParamSchema, jsonRequest, operations, readRoute } from "../platform/openapi";
import { outboundPolicy } from "../platform/outbound";
import { listQuery } from "../platform/paging";
import { keyring } from "../platform/secret-box";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from "./endpoints";
import { eventSchemas } from "./schemas";

const op = operations("Event endpoints", "memberToken");
const PATH = "/v1/manage/event-endpoints";

/**
 * The event endpoints: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function eventEndpointsRouter() {
  const {
    CreateEventEndpointSchema,
    EventEndpointSchema,
    EventEndpointWithSecretSchema,
    EventEndpointListSchema,
    EventSchema,
    UpdateEventEndpointSchema,
  } = eventSchemas();
  const EndpointListQuery = listQuery();
  const router = createRouter<MemberEnv>();

  router.openapi(
    createdRoute(
      "event_endpoint.created",
      "event_endpoint",
      op(
        "post",
        PATH,
        "createEventEndpoint",
        "Register an event endpoint (owners and admins); the secret is shown only here",
      ),
      16_384,
      CreateEventEndpointSchema,
      answers(201, EventEndpointWithSecretSchema, "Registered"),
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      const key = await keyring(c.env);
      const created = await createEndpoint(
        database(c.env),
        key,
        workspaceId,
        c.req.valid("json"),
        outboundPolicy(c.env),
      );
      return c.json(created, 201);
    },
  );

  router.openapi(
    {
      ...op("get", PATH, "listEventEndpoints", "List event endpoints (never their secrets)"),
      request: { query: EndpointListQuery },
      responses: answers(200, EventEndpointListSchema, "Endpoints, newest first"),
    },
    async (c) =>
      c.json(
        await listEndpoints(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    readRoute(
      op("get", `${PATH}/{id}`, "getEventEndpoint", "Read an event endpoint"),
      EventEndpointSchema,
      "The endpoint",
      "not_found",
    ),
    async (c) =>
      c.json(
        await getEndpoint(database(c.env), c.get("member").workspaceId, c.req.valid("param").id),
        200,
      ),
  );

  router.openapi(
    changeRoute(
      "event_endpoint.updated",
      "event_endpoint",
      op(
        "patch",
        `${PATH}/{id}`,
        "updateEventEndpoint",
        "Change an event endpoint: url, events, description, status, includeTranscript",
      ),
      16_384,
      UpdateEventEndpointSchema,
      EventEndpointSchema,
      "Changed",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      const id = c.req.valid("param").id;
      const input = c.req.valid("json");
      return c.json(
        await updateEndpoint(database(c.env), workspaceId, id, input, outboundPolicy(c.env)),
        200,
      );
    },
  );

  router.openapi(
    removalRoute(
      "event_endpoint.deleted",
      "event_endpoint",
      op("delete", `${PATH}/{id}`, "deleteEventEndpoint", "Delete an event endpoint"),
      "Deleted",
      "not_found",
    ),
    async (c) => {
      await deleteEndpoint(database(c.env), c.get("member").workspaceId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  router.openapi(
    audited(
      "event_endpoint.secret_rotated",
      { target: ["event_endpoint", "param:id"] },
      {
        ...op(
          "post",
          `${PATH}/{id}/rotate-secret`,
          "rotateEventEndpointSecret",
          "Rotate the signing secret; the old one keeps signing alongside for 24 hours",
        ),
        middleware: [requireWriter],
        request: { params: IdParamSchema },
        responses: answers(
          200,
          EventEndpointWithSecretSchema,
          "The new secret, shown only here",
          "not_found",
        ),
      },
    ),
    async (c) => {
      const key = await keyring(c.env);
      const { workspaceId } = c.get("member");
      return c.json(
        await rotateSecret(database(c.env), key, workspaceId, c.req.valid("param").id),
        200,
      );
    },
  );

  // How a receiver knows the event is ours: not a bearer token but the Standard Webhooks signature,
  // an HMAC of the body with the endpoint's secret (docs/events.md#signatures).
  router.openAPIRegistry.registerComponent("securitySchemes", "webhookSignature", {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (`whsec_…`); verify it before trusting the body.",
  });
  // The events this service POSTs to endpoints (OpenAPI 3.1 `webhooks`), for generated clients.
  router.openAPIRegistry.registerWebhook({
    method: "post",
    path: "lifecycleEvent",
    operationId: "receiveLifecycleEvent",
    security: [{ webhookSignature: [] }],
    summary: "A signed lifecycle event, POSTed to each event endpoint that listens to its type",
    description:
      "Signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`); see docs/events.md. Answer 2xx within 15 s, or it is retried.",
    tags: ["Event endpoints"],
    request: {
      headers: z.object({
        "webhook-id": z
          .string()
          .openapi({ description: "The event's id; the same on every retry" }),
        "webhook-timestamp": z
          .string()
          .openapi({ description: "The attempt's time (s since epoch)" }),
        "webhook-signature": z.string().openapi({
          description: "`v1,<base64 HMAC-SHA256>`; two, space-separated, during a rotation",
        }),
      }),
      body: jsonRequest(EventSchema),
    },
    responses: { 200: { description: "Received (any 2xx)" } },
  });

  return router;
}
