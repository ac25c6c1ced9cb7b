/**
 * The webhook receiver with real senders' requests (spec 2.6, 4.4; docs/api/webhooks.md): the spec's own
 * example, GitHub, Slack, Twilio, multipart, text and query-only deliveries (immediate mode and
 * real fetches: webhooks.modes.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import {
  createWorkflow,
  execution,
  hook,
  putSecret,
  SPEC_EXAMPLE,
  type WorkflowView,
} from "../helpers/workflows";

/** Answers (lastNode) with everything the webhook node saw. */
const MIRROR = (httpMethod = "POST") => ({
  nodes: [
    { type: "webhook", httpMethod, responseMode: "lastNode" },
    {
      key: "mirror",
      type: "set",
      fields: {
        body: "{{webhook_1.body}}",
        headers: "{{webhook_1.headers}}",
        queryParams: "{{webhook_1.queryParams}}",
        method: "{{webhook_1.method}}",
        rawBody: "{{webhook_1.rawBody}}",
      },
    },
  ],
  connections: [{ from: "webhook_1", to: "mirror" }],
});

type Mirror = {
  body: Record<string, unknown>;
  headers: Record<string, string>;
  queryParams: Record<string, unknown>;
  method: string;
  rawBody: string;
};

let ws: Workspace;
let mirror: WorkflowView;
let mirrorUrl: string;

beforeAll(async () => {
  ws = await seedWorkspace();
  mirror = await createWorkflow(ws, MIRROR());
  mirrorUrl = mirror.webhookUrls.webhook_1 as string;
});

describe("the spec's example: a shared secret checked by a Condition node", () => {
  let flow: WorkflowView;
  beforeAll(async () => {
    await putSecret(ws, "WEBHOOK_SECRET", "s3cr3t-value-42");
    flow = await createWorkflow(ws, SPEC_EXAMPLE);
  });

  it("answers with the final node's output when the secret is right", async () => {
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      headers: { "x-webhook-secret": "s3cr3t-value-42" },
      body: { orderId: 1042 },
    });
    expect(await expectJson(response, 200)).toEqual({
      ok: true,
      orderId: 1042,
      note: "order 1042",
    });
    const executionId = response.headers.get("x-execution-id") as string;
    const record = await execution(ws, flow.id, executionId);
    expect(record.status).toBe("succeeded");
    expect(record.nodes.map((n) => [n.key, n.status])).toEqual([
      ["webhook_1", "succeeded"],
      ["check", "succeeded"],
      ["accepted", "succeeded"],
    ]);
    // The header carried the secret's value: it is redacted in the record.
    expect(JSON.stringify(record)).not.toContain("s3cr3t-value-42");
    const trigger = record.nodes[0]?.output as Mirror;
    expect(trigger.headers["x-webhook-secret"]).toBe("[redacted]");
  });

  it("takes the false branch when the secret is wrong", async () => {
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      headers: { "x-webhook-secret": "guess" },
      body: { orderId: 1042 },
    });
    expect(await expectJson(response, 200)).toEqual({ ok: false, reason: "wrong secret" });
    const record = await execution(ws, flow.id, response.headers.get("x-execution-id") as string);
    expect(record.nodes.map((n) => n.key)).toEqual(["webhook_1", "check", "refused"]);
    expect(record.nodes[1]?.output).toEqual({ result: false });
  });

  it("uses a changed secret from the next call on", async () => {
    const url = flow.webhookUrls.webhook_1 as string;
    const send = async (secret: string) =>
      (
        await expectJson<{ ok: boolean }>(
          await hook(url, { headers: { "x-webhook-secret": secret }, body: { orderId: 1 } }),
          200,
        )
      ).ok;
    expect(await send("s3cr3t-value-42")).toBe(true);
    await putSecret(ws, "WEBHOOK_SECRET", "rotated-value-43");
    expect(await send("s3cr3t-value-42")).toBe(false);
    expect(await send("rotated-value-43")).toBe(true);
    await putSecret(ws, "WEBHOOK_SECRET", "s3cr3t-value-42");
  });

  it("shows the webhook URL of spec 4.4 on create and read", async () => {
    const read = await expectJson<WorkflowView>(
      await call("GET", `/v1/manage/workflows/${flow.id}`, { token: ws.ownerToken }),
      200,
    );
    expect(read.webhookUrls).toEqual({
      webhook_1: `https://edge.test/webhooks/${ws.slug}/${flow.slug}/webhook_1`,
    });
    expect(read.nodes[0]).toEqual({
      key: "webhook_1",
      type: "webhook",
      name: "Webhook",
      httpMethod: "POST",
      responseMode: "lastNode",
      responseTimeoutSeconds: 25,
      rateLimitPerMinute: 1200,
    });
  });
});

describe("real senders", () => {
  it("a GitHub delivery: JSON body, event and signature headers", async () => {
    const payload = {
      ref: "refs/heads/main",
      repository: { full_name: "octo/hello", id: 1296269 },
      commits: [{ id: "c0ffee", message: "Fix" }],
    };
    const response = await hook(mirrorUrl, {
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "GitHub-Hookshot/044aadd",
        "X-GitHub-Event": "push",
        "X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
        "X-Hub-Signature-256":
          "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
      },
      body: JSON.stringify(payload),
    });
    const seen = await expectJson<Mirror>(response, 200);
    expect(seen.body).toEqual(payload);
    expect(seen.method).toBe("POST");
    expect(seen.headers["x-github-event"]).toBe("push");
    expect(seen.headers["x-hub-signature-256"]).toBe(
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    );
    expect(Object.keys(seen.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(seen.rawBody).toBe("");
  });

  it("a Slack slash command: urlencoded form fields", async () => {
    const form =
      "token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T0001&team_domain=example&channel_id=C2147483705" +
      "&user_id=U2147483697&user_name=Steve&command=%2Fweather&text=94070" +
      "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2F1234%2F5678";
    const seen = await expectJson<Mirror>(
      await hook(mirrorUrl, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      }),
      200,
    );
    expect(seen.body).toMatchObject({
      command: "/weather",
      text: "94070",
      user_name: "Steve",
      response_url: "https://hooks.slack.com/commands/1234/5678",
    });
  });

  it("a Twilio callback: urlencoded, '+' in numbers, values stay strings", async () => {
    const form = new URLSearchParams({
      MessageSid: "SM1234567890abcdef",
      AccountSid: "AC1234567890abcdef",
      From: "+15551234567",
      To: "+15557654321",
      Body: "Hello there",
      NumMedia: "0",
    });
    const seen = await expectJson<Mirror>(
      await hook(mirrorUrl, {
        headers: { "x-twilio-signature": "RSOYDt4T1cUTdK1PDd93/VVr8B8=" },
        body: form,
      }),
      200,
    );
    expect(seen.body).toEqual(Object.fromEntries(form));
    expect(seen.body.NumMedia).toBe("0");
    expect(seen.headers["x-twilio-signature"]).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
  });

  it("a multipart form with a file: repeated names become arrays, files are described", async () => {
    const form = new FormData();
    form.append("title", "Quarterly report");
    form.append("tag", "finance");
    form.append("tag", "q3");
    form.append("file", new File(["a,b\n1,2\n"], "report.csv", { type: "text/csv" }));
    const seen = await expectJson<Mirror>(await hook(mirrorUrl, { body: form }), 200);
    expect(seen.body).toEqual({
      title: "Quarterly report",
      tag: ["finance", "q3"],
      file: { filename: "report.csv", contentType: "text/csv", size: 8 },
    });
  });

  it("a text/plain body: empty body object, the text in rawBody", async () => {
    const seen = await expectJson<Mirror>(
      await hook(mirrorUrl, { headers: { "content-type": "text/plain" }, body: "ping from cron" }),
      200,
    );
    expect(seen.body).toEqual({});
    expect(seen.rawBody).toBe("ping from cron");
  });

  it("a query-only GET: query values as strings, repeated ones as arrays", async () => {
    const getFlow = await createWorkflow(ws, MIRROR("GET"));
    const seen = await expectJson<Mirror>(
      await hook(`${getFlow.webhookUrls.webhook_1}?page=2&tag=a&tag=b&empty=`, { method: "GET" }),
      200,
    );
    expect(seen.method).toBe("GET");
    expect(seen.queryParams).toEqual({ page: "2", tag: ["a", "b"], empty: "" });
    expect(seen.body).toEqual({});
  });
});
