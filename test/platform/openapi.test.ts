import { describe, expect, it } from "vitest";
import { call, expectJson } from "../helpers/api";

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, unknown>; security?: unknown[] }>
  >;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  webhooks?: Record<string, { post?: { requestBody?: unknown } }>;
};

describe("OpenAPI document (generated from the zod schemas)", () => {
  it("documents every route with its error responses", async () => {
    const doc = await expectJson<Doc>(await call("GET", "/openapi.json"), 200);
    expect(doc.openapi).toBe("3.1.0");
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "POST /v1/widget/launches",
        "GET /v1/widget/launches",
        "POST /v1/widget/launches/{id}/end",
        "GET /v1/widget/launches/{id}",
        "DELETE /v1/widget/launches/{id}",
        "POST /v1/operator/workspaces",
        "POST /v1/operator/reseal",
        "GET /v1/operator/reseal/{id}",
        "POST /v1/widget/erasures",
        "GET /v1/widget/erasures/{id}",
        "POST /v1/manage/erasures",
        "GET /v1/manage/erasures/{id}",
        "DELETE /v1/operator/workspaces/{id}",
        "POST /v1/manage/members",
        "GET /v1/manage/members",
        "PATCH /v1/manage/members/{id}",
        "DELETE /v1/manage/members/{id}",
        "POST /v1/manage/widget-keys",
        "GET /v1/manage/widget-keys",
        "DELETE /v1/manage/widget-keys/{id}",
        "POST /v1/manage/agents",
        "GET /v1/manage/agents",
        "GET /v1/manage/agents/{id}",
        "PATCH /v1/manage/agents/{id}",
        "DELETE /v1/manage/agents/{id}",
        "POST /v1/manage/agents/{id}/channels",
        "POST /v1/manage/agents/{id}/channels/{channelId}/preview-link",
        "GET /v1/manage/agents/{id}/channels",
        "PATCH /v1/manage/agents/{id}/channels/{channelId}",
        "PUT /v1/manage/secrets/{name}",
        "GET /v1/manage/secrets",
        "DELETE /v1/manage/secrets/{name}",
        "POST /v1/manage/workflows",
        "GET /v1/manage/workflows",
        "GET /v1/manage/workflows/{id}",
        "PUT /v1/manage/workflows/{id}",
        "DELETE /v1/manage/workflows/{id}",
        "POST /v1/manage/workflows/{id}/start",
        "POST /v1/manage/workflows/{id}/stop",
        "GET /v1/manage/workflows/{id}/executions",
        "GET /v1/manage/workflows/{id}/executions/{executionId}",
        "POST /v1/manage/workflows/{id}/executions/{executionId}/replay",
        "POST /v1/manage/workflows/{id}/executions/replay",
        "GET /v1/manage/workflows/{id}/requests",
        "GET /v1/manage/workflows/{id}/requests/{requestId}",
        "POST /v1/manage/workflows/{id}/nodes/{key}/capture",
        "GET /v1/manage/workflows/{id}/nodes/{key}/samples",
        "POST /v1/manage/workflows/{id}/nodes/{key}/test-runs",
        "POST /webhook-test/{workspace}/{workflow}/{node}",
        "POST /v1/manage/sign-in-links",
        "DELETE /v1/manage/sessions",
        "GET /v1/manage/me",
        "GET /v1/manage/passkeys",
        "POST /v1/manage/passkeys",
        "POST /v1/manage/passkeys/options",
        "DELETE /v1/manage/passkeys/{id}",
        "POST /webhooks/{workspace}/{workflow}/{node}",
        "GET /webhooks/results/{executionId}",
        "POST /v1/chat/sessions",
        "POST /v1/chat/rating",
        "GET /v1/chat/sessions/{sessionId}/socket",
        "GET /v1/chat/channels/{channelId}/embedding",
        "GET /v1/manage/usage",
        "GET /v1/manage/metrics",
        "GET /v1/manage/workspace",
        "PATCH /v1/manage/workspace",
        "GET /v1/manage/links",
        "GET /v1/manage/links/{id}",
        "DELETE /v1/manage/links/{id}",
        "POST /v1/manage/links/{id}/end",
        "POST /v1/manage/event-endpoints",
        "GET /v1/manage/event-endpoints",
        "GET /v1/manage/event-endpoints/{id}",
        "GET /v1/manage/event-endpoints/{id}/deliveries",
        "PATCH /v1/manage/event-endpoints/{id}",
        "DELETE /v1/manage/event-endpoints/{id}",
        "POST /v1/manage/event-endpoints/{id}/deliveries/{deliveryId}/resend",
        "POST /v1/manage/event-endpoints/{id}/recover",
        "POST /v1/manage/event-endpoints/{id}/rotate-secret",
        "POST /v1/manage/event-endpoints/{id}/test",
        "GET /v1/manage/audit-log",
        "GET /v1/operator/audit-log",
      ].sort(),
    );
    const create = doc.paths["/v1/widget/launches"]?.post;
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(
      ["201", "400", "401", "403", "404", "409", "413", "415", "422", "429", "500"].sort(),
    );
    expect(Object.keys(doc.paths["/v1/widget/launches/{id}"]?.delete?.responses ?? {})).toContain(
      "204",
    );
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(
          Object.keys(operation.responses).some((s) => s.startsWith("4")),
          `${method} ${path}`,
        ).toBe(true);
        expect(operation.security, `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc.components.schemas).toHaveProperty("CreateLaunch");
    expect(doc.components.schemas).toHaveProperty("Error");
    // The events POSTed to event endpoints, for generated clients (docs/events.md#bodies).
    expect(JSON.stringify(Object.values(doc.webhooks ?? {})[0]?.post?.requestBody)).toContain(
      "#/components/schemas/Event",
    );
    expect(doc.components.schemas).toHaveProperty("LifecycleEvent");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(
      [
        "memberToken",
        "operatorToken",
        "resultToken",
        "webhookSignature",
        "widgetKey",
        "widgetKeyHeader",
      ].sort(),
    );
  });

  it("renders the reference at /docs", async () => {
    const response = await call("GET", "/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("/openapi.json");
  });
});
