/**
 * The demo `npm run dev` seeds (scripts/demo-seed.mjs), run against the Worker itself: the
 * workspace, the running "Order events" workflow, the webhook curl example of the banner
 * (scripts/demo-text.mjs), performed exactly as printed, and the check at every start that puts the
 * demo back when its secret or workflow was changed (README "Quick start").
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  type DemoWorkflow,
  type DemoWorkspace,
  ensureDemoWorkflow,
  probeDemoWebhook,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "../../scripts/demo-seed.mjs";
import { demoBanner } from "../../scripts/demo-text.mjs";

const ORIGIN = "https://edge.test";
const SECRET = "demo-secret_Abc123-xyz";

/** Same shape as scripts/dev.mjs's `api`, on top of the Worker's default export. */
const api: Api = async (method, path, { token, body, headers: extra } = {}) => {
  const headers = new Headers(extra);
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (body !== undefined) headers.set("content-type", "application/json");
  const res = await exports.default.fetch(
    new Request(ORIGIN + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined;
  return { status: res.status, json, text };
};

type Curl = { url: string; headers: Record<string, string>; body: string };

/** Parses the banner's webhook curl line: URL, -H headers and the single-quoted -d body. */
function webhookCurl(banner: string): Curl {
  const line = banner.split("\n").find((l) => /curl -s -X POST \S+\/webhooks\//.test(l));
  if (!line) throw new Error(`no webhook curl line in:\n${banner}`);
  const url = line.match(/curl -s -X POST (\S+)/)?.[1] as string;
  const headers: Record<string, string> = {};
  for (const [, name, value] of line.matchAll(/-H "([^:"]+): ([^"]*)"/g))
    headers[(name as string).toLowerCase()] = value as string;
  const body = line.match(/-d '([^']*)'/)?.[1] as string;
  return { url, headers, body };
}

function send(curl: Curl): Promise<Response> {
  return exports.default.fetch(
    new Request(curl.url, { method: "POST", headers: curl.headers, body: curl.body }),
  );
}

let workspace: DemoWorkspace;
let workflow: DemoWorkflow;
let banner: string;

beforeAll(async () => {
  workspace = await seedDemoWorkspace(api, "test-operator-token-of-32-characters");
  workflow = await seedDemoWorkflow(api, workspace.memberToken, SECRET);
  banner = demoBanner("http://127.0.0.1:8787", { ...workspace, ...workflow }, false);
});

describe("the npm run dev demo", () => {
  it("seeds a workspace whose credentials work", async () => {
    expect(workspace.workspaceId).toMatch(/^ws_/);
    expect(workspace.memberToken).toMatch(/^mt_/);
    expect(workspace.widgetKey).toMatch(/^wk_live_/);
    const agents = await api("GET", "/v1/manage/agents", { token: workspace.memberToken });
    expect(agents.status).toBe(200);
    expect(agents.json.data.map((a: { id: string }) => a.id)).toContain(workspace.agentId);
    const key = await api("GET", "/v1/widget/launches/lnk_doesnotexist", {
      token: workspace.widgetKey,
    });
    expect(key.status).toBe(404);
  });

  it("creates the Order events workflow, running, with its webhook URL", async () => {
    expect(workflow.webhookSecret).toBe(SECRET);
    const read = await api("GET", `/v1/manage/workflows/${workflow.workflowId}`, {
      token: workspace.memberToken,
    });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ name: "Order events", slug: "order-events" });
    expect(read.json.status).toBe("running");
    expect(workflow.webhookUrl).toBe(
      `${ORIGIN}/webhooks/${workspace.workspaceSlug}/order-events/webhook_1`,
    );
    expect(read.json.webhookUrls).toEqual({ webhook_1: workflow.webhookUrl });
    const secrets = await api("GET", "/v1/manage/secrets", { token: workspace.memberToken });
    expect(secrets.text).toContain("WEBHOOK_SECRET");
    expect(secrets.text).not.toContain(SECRET);
  });

  it("prints the webhook URL, a curl line with the secret header and the executions call", () => {
    expect(banner).toContain("demo seeded");
    expect(banner).toContain(`Webhook URL     ${workflow.webhookUrl}`);
    expect(banner).toContain(
      `curl -s -X POST ${workflow.webhookUrl} -H "Content-Type: application/json" -H "x-webhook-secret: ${SECRET}" -d '{"orderId":1042}'`,
    );
    expect(banner).toContain('{"ok":true,"orderId":1042,"message":"Order 1042 received"}');
    expect(banner).toContain('{"ok":false,...}');
    expect(banner).toContain(
      `curl -s http://127.0.0.1:8787/v1/manage/workflows/${workflow.workflowId}/executions -H "Authorization: Bearer ${workspace.memberToken}"`,
    );
    // The launch API part of the banner is still there.
    expect(banner).toContain(`Widget key      ${workspace.widgetKey}`);
    expect(banner).toContain("curl -s -X POST http://127.0.0.1:8787/v1/widget/launches");
    expect(demoBanner("http://x", { ...workspace, ...workflow }, true)).toContain("demo reused");
  });

  it("the printed curl works: 200 with the accepted branch's output", async () => {
    const curl = webhookCurl(banner);
    expect(curl).toEqual({
      url: workflow.webhookUrl,
      headers: { "content-type": "application/json", "x-webhook-secret": SECRET },
      body: '{"orderId":1042}',
    });
    const response = await send(curl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      orderId: 1042,
      message: "Order 1042 received",
    });
    const executionId = response.headers.get("x-execution-id");
    expect(executionId).toMatch(/^exe_/);
    const executions = await api("GET", `/v1/manage/workflows/${workflow.workflowId}/executions`, {
      token: workspace.memberToken,
    });
    expect(executions.status).toBe(200);
    expect(executions.text).toContain(executionId as string);
  });

  it("seeding the workflow again finds it in the paged list and reuses it", async () => {
    const again = await seedDemoWorkflow(api, workspace.memberToken, SECRET);
    expect(again.workflowId).toBe(workflow.workflowId);
    expect(again.webhookUrl).toBe(workflow.webhookUrl);
  });

  it("with a wrong secret it answers the refused branch", async () => {
    const curl = webhookCurl(banner);
    const response = await send({
      ...curl,
      headers: { ...curl.headers, "x-webhook-secret": "wrong" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: false,
      reason: "The x-webhook-secret header is wrong.",
    });
  });

  it("seeding the workflow again reuses the slug and the webhook still answers", async () => {
    const again = await seedDemoWorkflow(api, workspace.memberToken, "second-secret");
    expect(again.workflowId).toBe(workflow.workflowId);
    expect(again.webhookUrl).toBe(workflow.webhookUrl);
    const list = await api("GET", "/v1/manage/workflows", { token: workspace.memberToken });
    expect(list.json.data.filter((w: { slug: string }) => w.slug === "order-events")).toHaveLength(
      1,
    );
    const curl = webhookCurl(demoBanner(ORIGIN, { ...workspace, ...again }, true));
    expect(curl.headers["x-webhook-secret"]).toBe("second-secret");
    const response = await send(curl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      orderId: 1042,
      message: "Order 1042 received",
    });
  });

  it("reseeds a stopped workflow into a running one", async () => {
    const stop = await api("POST", `/v1/manage/workflows/${workflow.workflowId}/stop`, {
      token: workspace.memberToken,
    });
    expect(stop.json.status).toBe("stopped");
    const stopped = await send(webhookCurl(banner));
    expect(stopped.status).toBe(404);
    await seedDemoWorkflow(api, workspace.memberToken, SECRET);
    const response = await send(webhookCurl(banner));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, orderId: 1042 });
  });

  it("at a start, leaves a demo that answers ok as it is", async () => {
    const checked = await ensureDemoWorkflow(api, workspace.memberToken, workflow);
    expect(checked.reseeded).toBeNull();
    expect(checked.workflow).toEqual(workflow);
  });

  it("at a start, puts back a WEBHOOK_SECRET someone changed, so the banner's call answers ok", async () => {
    // What the README's webhook example once did to the demo.
    const changed = await api("PUT", "/v1/manage/secrets/WEBHOOK_SECRET", {
      token: workspace.memberToken,
      body: { value: "s3cr3t" },
    });
    expect(changed.status).toBe(204);
    expect((await probeDemoWebhook(api, workflow)).ok).toBe(false);
    const checked = await ensureDemoWorkflow(api, workspace.memberToken, workflow);
    expect(checked.reseeded).toMatch(/answered 200 .*"ok":false/);
    expect(checked.workflow).toEqual(workflow);
    const response = await send(
      webhookCurl(demoBanner(ORIGIN, { ...workspace, ...workflow }, true)),
    );
    expect(await response.json()).toEqual({
      ok: true,
      orderId: 1042,
      message: "Order 1042 received",
    });
  });

  it("at a start, puts back a demo workflow that was edited or stopped", async () => {
    const edited = await api("PUT", `/v1/manage/workflows/${workflow.workflowId}`, {
      token: workspace.memberToken,
      body: {
        name: "Order events",
        slug: "order-events",
        nodes: [
          { type: "webhook", responseMode: "lastNode" },
          { key: "s", type: "set", fields: { ok: 1 } },
        ],
        connections: [{ from: "webhook_1", to: "s" }],
      },
    });
    expect(edited.status).toBe(200);
    expect(
      (await ensureDemoWorkflow(api, workspace.memberToken, workflow)).reseeded,
    ).not.toBeNull();
    expect((await probeDemoWebhook(api, workflow)).ok).toBe(true);
    await api("POST", `/v1/manage/workflows/${workflow.workflowId}/stop`, {
      token: workspace.memberToken,
    });
    const checked = await ensureDemoWorkflow(api, workspace.memberToken, workflow);
    expect(checked.reseeded).toBe("the demo workflow was missing or stopped");
    expect((await probeDemoWebhook(api, checked.workflow)).ok).toBe(true);
  });

  it("throws a clear error on an unexpected status", async () => {
    await expect(seedDemoWorkspace(api, "not-the-operator-token")).rejects.toThrow(
      /POST \/v1\/operator\/workspaces answered 401/,
    );
    await expect(seedDemoWorkflow(api, "mt_not_a_token", SECRET)).rejects.toThrow(
      /PUT \/v1\/manage\/secrets\/WEBHOOK_SECRET answered 401/,
    );
  });
});
