/**
 * The webhook receiver's answers beyond lastNode (docs/api/webhooks.md#responses): immediate mode,
 * and the http_request node's real fetch with its response handed on and secrets redacted.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, ECHO_URL, execution, hook, putSecret } from "../helpers/workflows";

let ws: Workspace;

beforeAll(async () => {
  ws = await seedWorkspace();
});

describe("immediate mode", () => {
  it("answers 200 {success, executionId} at once and records the execution", async () => {
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook" },
        { key: "done", type: "set", fields: { id: "{{webhook_1.body.id}}" } },
      ],
      connections: [{ from: "webhook_1", to: "done" }],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { id: 7 } });
    const body = await expectJson<{ success: boolean; executionId: string }>(response, 200);
    expect(body).toEqual({
      success: true,
      executionId: expect.stringMatching(/^exe_[0-9A-Za-z]{24}$/),
    });
    const record = await execution(ws, flow.id, body.executionId);
    expect(record).toMatchObject({
      id: body.executionId,
      workflowId: flow.id,
      status: "succeeded",
      trigger: { key: "webhook_1", type: "webhook" },
    });
    expect(record.nodes[1]).toMatchObject({ key: "done", status: "succeeded", output: { id: 7 } });
    expect(record.finishedAt).not.toBeNull();
  });
});

describe("http_request performs a real fetch", () => {
  it("sends the templated request and hands the parsed response on; secrets are redacted", async () => {
    await putSecret(ws, "API_TOKEN", "tok_live_abcdef123456");
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        {
          key: "call",
          type: "http_request",
          method: "POST",
          url: `${ECHO_URL}/echo?order={{webhook_1.body.orderId}}`,
          headers: { authorization: "Bearer {{secrets.API_TOKEN}}" },
          body: { orderId: "{{webhook_1.body.orderId}}", note: "n-{{webhook_1.body.orderId}}" },
        },
        {
          key: "reply",
          type: "set",
          fields: {
            status: "{{call.status}}",
            echoed: "{{call.body.body}}",
            path: "{{call.body.path}}",
            marker: "{{call.headers.x-echo}}",
          },
        },
      ],
      connections: [
        { from: "webhook_1", to: "call" },
        { from: "call", to: "reply" },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { orderId: 55 } });
    expect(await expectJson(response, 200)).toEqual({
      status: 200,
      echoed: JSON.stringify({ orderId: 55, note: "n-55" }),
      path: "/echo?order=55",
      marker: "yes",
    });
    const record = await execution(ws, flow.id, response.headers.get("x-execution-id") as string);
    const echoed = (
      record.nodes[1]?.output as { body: { headers: Record<string, string> } } | undefined
    )?.body as { headers: Record<string, string> };
    expect(echoed.headers.authorization).toBe("Bearer [redacted]");
    expect(echoed.headers["content-type"]).toBe("application/json");
    expect(JSON.stringify(record)).not.toContain("tok_live_abcdef123456");
  });

  it("a non-2xx answer fails the node unless it sets neverError", async () => {
    const make = (neverError: boolean) =>
      createWorkflow(ws, {
        nodes: [
          { type: "webhook", responseMode: "lastNode" },
          { key: "call", type: "http_request", url: `${ECHO_URL}/status/503`, neverError },
        ],
        connections: [{ from: "webhook_1", to: "call" }],
      });
    const strict = await make(false);
    const failed = await hook(strict.webhookUrls.webhook_1 as string, { body: {} });
    const error = await expectJson<{ error: { code: string; details: unknown[] } }>(failed, 500);
    expect(error.error.code).toBe("workflow_failed");
    expect(error.error.details).toEqual([
      { executionId: failed.headers.get("x-execution-id"), node: "call" },
    ]);
    const record = await execution(ws, strict.id, failed.headers.get("x-execution-id") as string);
    expect(record.status).toBe("failed");
    expect(record.nodes[1]).toMatchObject({
      key: "call",
      status: "failed",
      error: expect.stringContaining("503"),
    });

    const lenient = await make(true);
    const passed = await hook(lenient.webhookUrls.webhook_1 as string, { body: {} });
    expect(await expectJson(passed, 200)).toMatchObject({ status: 503, body: { status: 503 } });
  });

  it("follows up to 5 redirects by hand, a 303 as a GET, and fails on a sixth", async () => {
    const fetching = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        {
          key: "call",
          type: "http_request",
          method: "POST",
          url: `${ECHO_URL}{{webhook_1.body.path}}`,
          body: { a: 1 },
        },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    });
    const send = (path: string) =>
      hook(fetching.webhookUrls.webhook_1 as string, { body: { path } });
    // 302 after a POST becomes a GET, as browsers and the Fetch standard do.
    const five = await expectJson<{ status: number; body: { method: string; path: string } }>(
      await send("/hops/5?q=1"),
      200,
    );
    expect(five).toMatchObject({ status: 200, body: { method: "GET", path: "/hops/0?q=1" } });
    const seeOther = await expectJson<{ body: { method: string; body: string } }>(
      await send(`/redirect/303?to=${encodeURIComponent("/echo")}`),
      200,
    );
    expect(seeOther.body).toMatchObject({ method: "GET", body: "" });
    const kept = await expectJson<{ body: { method: string; body: string } }>(
      await send(`/redirect/307?to=${encodeURIComponent("/echo")}`),
      200,
    );
    expect(kept.body).toMatchObject({ method: "POST", body: '{"a":1}' });
    const six = await send("/hops/6");
    expect(six.status).toBe(500);
    const record = await execution(ws, fetching.id, six.headers.get("x-execution-id") as string);
    expect(record.nodes[1]).toMatchObject({ status: "failed", error: "More than 5 redirects." });
  });
});
