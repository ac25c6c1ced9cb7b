/**
 * responseNode webhooks and the respond node (docs/webhooks.md#respond-node): the call is answered
 * with the first respond node's status, headers and body as soon as it has run while the run goes
 * on; content types, redirects, no respond node reached (answered as lastNode), a timeout's result
 * handle, secrets kept out, and the problems refused when the workflow is saved.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import { createWorkflow, ECHO_URL, execution, hook, putSecret } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

/** webhook (responseNode) → respond (settings as given) → wait `seconds` → set. */
function answerThenWait(respond: Record<string, unknown>, seconds = 2) {
  return {
    nodes: [
      { type: "webhook", responseMode: "responseNode" },
      { key: "reply", type: "respond", ...respond },
      { key: "pause", type: "wait", seconds },
      { key: "done", type: "set", fields: { finished: true } },
    ],
    connections: [
      { from: "webhook_1", to: "reply" },
      { from: "reply", to: "pause" },
      { from: "pause", to: "done" },
    ],
  };
}

describe("responseNode", () => {
  it("answers with the respond node's reply before the run finishes; the run then finishes", async () => {
    const flow = await createWorkflow(
      ws,
      answerThenWait({
        status: 201,
        headers: { "x-order": "{{webhook_1.body.orderId}}", "cache-control": "no-store" },
        contentType: "text",
        body: "Order {{webhook_1.body.orderId}} received ({{$execution.id}})",
      }),
    );
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { orderId: 42 } });
    const executionId = response.headers.get("x-execution-id") as string;
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-order")).toBe("42");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe(`Order 42 received (${executionId})`);
    // Answered while the wait after the respond node still runs.
    const running = await execution(ws, flow.id, executionId);
    expect(running.status).toBe("running");
    expect(running.nodes.find((run) => run.key === "reply")).toMatchObject({
      status: "succeeded",
      answered: true,
      output: { status: 201, contentType: "text" },
    });
    const done = await eventually(async () => {
      const record = await execution(ws, flow.id, executionId);
      return record.status === "running" ? undefined : record;
    }, 10_000);
    expect(done.status).toBe("succeeded");
    expect(done.nodes.at(-1)).toMatchObject({ key: "done", output: { finished: true } });
  });

  it("sends html and xml with their content types, a content-type header winning", async () => {
    const html = await createWorkflow(
      ws,
      answerThenWait({ contentType: "html", body: "<h1>{{webhook_1.body.name}}</h1>" }, 0),
    );
    const page = await hook(html.webhookUrls.webhook_1 as string, { body: { name: "Ada" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toBe("<h1>Ada</h1>");

    const xml = await createWorkflow(
      ws,
      answerThenWait({ contentType: "xml", body: "<ok id='{{webhook_1.body.id}}'/>" }, 0),
    );
    const feed = await hook(xml.webhookUrls.webhook_1 as string, { body: { id: 5 } });
    expect(feed.headers.get("content-type")).toBe("application/xml");
    expect(await feed.text()).toBe("<ok id='5'/>");

    const rss = await createWorkflow(
      ws,
      answerThenWait(
        { contentType: "xml", headers: { "content-type": "application/rss+xml" }, body: "<rss/>" },
        0,
      ),
    );
    const custom = await hook(rss.webhookUrls.webhook_1 as string, { body: {} });
    expect(custom.headers.get("content-type")).toBe("application/rss+xml");
    expect(await custom.text()).toBe("<rss/>");
  });

  it("redirects with a 3xx and its location, without a body", async () => {
    const flow = await createWorkflow(
      ws,
      answerThenWait(
        { status: 302, headers: { location: "https://shop.example/orders/{{webhook_1.body.id}}" } },
        0,
      ),
    );
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { id: 9 },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://shop.example/orders/9");
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("answers as lastNode when no respond node is reached", async () => {
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "responseNode" },
        {
          key: "check",
          type: "condition",
          left: "{{webhook_1.body.ok}}",
          operator: "equals",
          right: true,
        },
        { key: "reply", type: "respond", status: 202, body: { accepted: true } },
        { key: "refused", type: "set", fields: { accepted: false, why: "not ok" } },
      ],
      connections: [
        { from: "webhook_1", to: "check" },
        { from: "check", to: "reply", branch: "true" },
        { from: "check", to: "refused", branch: "false" },
      ],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const refused = await hook(url, { body: { ok: false } });
    expect(await expectJson(refused, 200)).toEqual({ accepted: false, why: "not ok" });
    const accepted = await hook(url, { body: { ok: true } });
    expect(accepted.headers.get("content-type")).toBe("application/json");
    expect(await expectJson(accepted, 202)).toEqual({ accepted: true });
  });

  it("keeps secrets out of the reply, even through an earlier node", async () => {
    await putSecret(ws, "REPLY_SECRET", "sk_reply_0123456789");
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "responseNode" },
        { key: "auth", type: "set", fields: { header: "Bearer {{secrets.REPLY_SECRET}}" } },
        {
          key: "reply",
          type: "respond",
          body: { direct: "{{secrets.REPLY_SECRET}}", copied: "{{auth.header}}" },
        },
      ],
      connections: [
        { from: "webhook_1", to: "auth" },
        { from: "auth", to: "reply" },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: {} });
    expect(await expectJson(response, 200)).toEqual({
      direct: "",
      copied: "Bearer [redacted]",
    });
  });

  it("keeps the reply as the answer when a later node fails", async () => {
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "responseNode", dedupe: { key: "{{webhook_1.body.id}}" } },
        { key: "reply", type: "respond", status: 202, body: { queued: "{{webhook_1.body.id}}" } },
        { key: "call", type: "http_request", url: `${ECHO_URL}/status/503` },
      ],
      connections: [
        { from: "webhook_1", to: "reply" },
        { from: "reply", to: "call" },
      ],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const response = await hook(url, { body: { id: "a1" } });
    expect(await expectJson(response, 202)).toEqual({ queued: "a1" });
    const executionId = response.headers.get("x-execution-id") as string;
    const failed = await eventually(async () => {
      const record = await execution(ws, flow.id, executionId);
      return record.status === "running" ? undefined : record;
    }, 10_000);
    expect(failed.status).toBe("failed");
    // A repeated delivery gets the first call's answer from the record: the reply, not a 500.
    const repeat = await hook(url, { body: { id: "a1" } });
    expect(repeat.headers.get("x-deduplicated")).toBe("true");
    expect(repeat.headers.get("x-execution-id")).toBe(executionId);
    expect(await expectJson(repeat, 202)).toEqual({ queued: "a1" });
  });

  it("past its timeout answers 504 with a result URL that later gives the reply", async () => {
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "responseNode", responseTimeoutSeconds: 1 },
        { key: "slow", type: "wait", seconds: 2 },
        {
          key: "reply",
          type: "respond",
          status: 201,
          headers: { "x-order": "{{webhook_1.body.orderId}}" },
          body: { orderId: "{{webhook_1.body.orderId}}" },
        },
        { key: "after", type: "wait", seconds: 30 },
      ],
      connections: [
        { from: "webhook_1", to: "slow" },
        { from: "slow", to: "reply" },
        { from: "reply", to: "after" },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { orderId: 7 } });
    const body = await expectJson<{
      error: { code: string; executionId: string; resultUrl: string; resultToken: string };
    }>(response, 504);
    expect(body.error.code).toBe("workflow_timeout");
    expect(response.headers.get("location")).toBe(body.error.resultUrl);
    const path = new URL(body.error.resultUrl).pathname;
    const token = body.error.resultToken;
    expect(await expectJson(await call("GET", path, { token }), 202)).toEqual({
      status: "running",
      executionId: body.error.executionId,
    });
    // The reply is the answer as soon as the respond node has run, while the run goes on.
    const answered = await eventually(async () => {
      const answer = await call("GET", path, { token });
      return answer.status === 202 ? undefined : answer;
    }, 10_000);
    expect(answered.headers.get("x-order")).toBe("7");
    expect(answered.headers.get("x-execution-id")).toBe(body.error.executionId);
    expect(await expectJson(answered, 201)).toEqual({ orderId: 7 });
    const record = await execution(ws, flow.id, body.error.executionId);
    expect(record.status).toBe("running");
  });

  it("refuses respond problems when the workflow is saved, every one listed", async () => {
    const response = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad respond",
        slug: "bad-respond",
        nodes: [
          { type: "webhook", responseMode: "lastNode" },
          {
            key: "reply",
            type: "respond",
            status: 301,
            contentType: "yaml",
            headers: { "transfer-encoding": "chunked", "set-cookie": "s=1; Domain=evil.example" },
          },
          { key: "odd", type: "respond", status: 99 },
        ],
        connections: [
          { from: "webhook_1", to: "reply" },
          { from: "reply", to: "odd" },
        ],
      },
    });
    const { error } = await expectError(response, 400, "invalid_request");
    expect(error.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(
      [
        "nodes[1] respond_unreachable",
        "nodes[1].contentType invalid_option",
        "nodes[1].headers missing_location",
        "nodes[1].headers.set-cookie refused_header",
        "nodes[1].headers.transfer-encoding refused_header",
        "nodes[2] respond_unreachable",
        "nodes[2].status out_of_range",
      ].sort(),
    );
  });
});
