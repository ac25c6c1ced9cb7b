/**
 * Webhook replies share the dashboard's origin (docs/security.md#webhook-replies): they are
 * sandboxed (no script runs), may not set the dashboard's or any `__Host-`/`__Secure-` cookie even
 * through a template, and a workflow never sees the dashboard's session cookie.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, execution, hook } from "../helpers/workflows";

describe("webhook replies on the dashboard's origin", () => {
  it("are sandboxed and drop refused cookies, even templated ones", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          responseHeaders: {
            "set-cookie": "{{webhook_1.body.cookie}}",
            "content-type": "text/html",
          },
          responseBody: "<script>fetch('/v1/manage/members')</script>",
        },
      ],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const planted = await hook(url, {
      body: { cookie: "__Host-agent_edge_session=ds_attacker; Path=/; Secure" },
    });
    expect(planted.status).toBe(200);
    expect(planted.headers.get("content-security-policy")).toBe("sandbox");
    expect(planted.headers.get("set-cookie")).toBeNull();
    for (const cookie of ["__Secure-x=1", "agent_edge_session=1", "a=1; Domain=evil.test"]) {
      expect((await hook(url, { body: { cookie } })).headers.get("set-cookie")).toBeNull();
    }
    expect((await hook(url, { body: { cookie: "theme=dark" } })).headers.get("set-cookie")).toBe(
      "theme=dark",
    );
    // Errors too: nothing served on these paths runs script.
    const refused = await hook(url, { method: "PUT", body: {} });
    expect(refused.headers.get("content-security-policy")).toBe("sandbox");
  });

  it("refuses a literal reserved cookie when the workflow is saved", async () => {
    const ws = await seedWorkspace();
    const saved = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Cookies",
        slug: "cookies",
        nodes: [
          { type: "webhook", responseHeaders: { "set-cookie": "__Host-x=1; Path=/; Secure" } },
        ],
      },
    });
    const { error } = await expectJson<{ error: { details: { field: string; code: string }[] } }>(
      saved,
      400,
    );
    expect(error.details).toContainEqual(
      expect.objectContaining({
        field: "nodes[0].responseHeaders.set-cookie",
        code: "refused_header",
      }),
    );
  });

  it("never hands the dashboard's session cookie to a workflow", async () => {
    const ws = await seedWorkspace();
    // The lastNode answer shows what the workflow read (records show cookies `[redacted]`).
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "seen", type: "set", fields: { cookie: "{{webhook_1.headers.cookie}}" } },
      ],
      connections: [{ from: "webhook_1", to: "seen" }],
    });
    const answer = await hook(flow.webhookUrls.webhook_1 as string, {
      headers: { cookie: "theme=dark; __Host-agent_edge_session=ds_secret; lang=en" },
      body: {},
    });
    expect(await expectJson(answer, 200)).toEqual({ cookie: "theme=dark; lang=en" });
    const executionId = answer.headers.get("x-execution-id") as string;
    const record = await execution(ws, flow.id, executionId);
    expect(JSON.stringify(record)).not.toContain("ds_secret");
  });
});
