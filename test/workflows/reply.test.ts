/**
 * An immediate node's own reply (docs/webhooks.md#replies): status, headers and body as templates
 * over the call and the execution; a string body as text; no header splitting; the defaults kept
 * without settings; settings refused for lastNode and for headers that are the service's.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, hook } from "../helpers/workflows";

describe("webhook replies", () => {
  it("answers with the node's status, headers and templated body", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          responseStatus: 202,
          responseHeaders: { "x-order": "{{webhook_1.body.orderId}}", "cache-control": "no-store" },
          responseBody: {
            received: "{{webhook_1.body.orderId}}",
            id: "{{$execution.id}}",
            secret: "{{secrets.X}}",
          },
        },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { orderId: 1042 } });
    expect(response.status).toBe(202);
    expect(response.headers.get("x-order")).toBe("1042");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const executionId = response.headers.get("x-execution-id");
    expect(await response.json()).toEqual({ received: 1042, id: executionId, secret: "" });
  });

  it("sends a string body as text, and a value from the call cannot split the headers", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          responseHeaders: { "x-echo": "{{webhook_1.body.name}}" },
          responseBody: "Thanks, {{webhook_1.body.name}}",
        },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { name: "Ada\r\nset-cookie: stolen=1" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-echo")).toBe("Ada  set-cookie: stolen=1");
    expect(await response.text()).toBe("Thanks, Ada\r\nset-cookie: stolen=1");
    const long = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { name: "x".repeat(10_000) },
    });
    expect(long.headers.get("x-echo")).toHaveLength(4_096);
  });

  it("keeps the default answer without settings", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: {} });
    expect(await response.json()).toEqual({
      success: true,
      executionId: response.headers.get("x-execution-id"),
    });
  });

  it("refuses bad reply settings with every problem listed", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad reply",
        slug: "bad-reply",
        nodes: [
          {
            type: "webhook",
            responseStatus: 302,
            responseHeaders: {
              "transfer-encoding": "chunked",
              "set-cookie": "a=1; Domain=evil.example",
              "x-ok": 1,
            },
            responseBody: "{{other.body}}",
          },
          { key: "late", type: "webhook", responseMode: "lastNode", responseStatus: 200 },
        ],
        connections: [],
      },
    });
    const body = await expectJson<{ error: { details: { field: string; code: string }[] } }>(
      response,
      400,
    );
    expect(body.error.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(
      [
        "nodes[0].responseStatus out_of_range",
        "nodes[0].responseHeaders.transfer-encoding refused_header",
        "nodes[0].responseHeaders.set-cookie refused_header",
        "nodes[0].responseHeaders.x-ok invalid_type",
        "nodes[0].responseBody invalid_reference",
        "nodes[1].responseStatus not_allowed",
      ].sort(),
    );
  });
});
