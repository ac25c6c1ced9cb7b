/**
 * Handshakes answered for the builder (docs/webhooks.md#handshakes), end to end through a webhook
 * URL: each sender's handshake is answered exactly as its documentation asks (status, content
 * type, body, headers), is logged as `handshake` and starts no execution; a GET handshake is
 * answered on a POST node; a signed handshake is verified first; meta's wrong token gets 403.
 * Example values are the documentation's own where it publishes them (cited by each test).
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import {
  base64,
  hex,
  hmac,
  loggedCalls,
  slackHeaders,
  zoomHeaders,
} from "../helpers/handshake-signing";
import { createWorkflow, executionCount, hook, putSecret } from "../helpers/workflows";

/** A running workflow whose one webhook node (POST, the default) has `verify`. */
async function hookWith(ws: Workspace, verify: Record<string, unknown>) {
  const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
  return { id: flow.id, url: flow.webhookUrls.webhook_1 as string };
}

const TEXT = "text/plain; charset=utf-8";

describe("handshakes", () => {
  it("slack: a signed url_verification is answered with its challenge; an unsigned one is refused", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "SLACK", "slack-signing-secret");
    const flow = await hookWith(ws, { preset: "slack", secret: "{{secrets.SLACK}}" });
    // https://api.slack.com/events/url_verification: the example payload, answered in plain text.
    const body = JSON.stringify({
      token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    });
    const answered = await hook(flow.url, {
      headers: await slackHeaders("slack-signing-secret", body),
      body,
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe(TEXT);
    expect(answered.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answered.headers.get("x-execution-id")).toBeNull();
    expect(await answered.text()).toBe("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
    const forged = await hook(flow.url, {
      headers: await slackHeaders("guessed", body),
      body,
    });
    await expectError(forged, 401, "invalid_signature");
    expect(await loggedCalls(ws, flow.id, 2)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
      { outcome: "invalid_signature", status: 401, executionId: null, reason: "bad_signature" },
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("meta: GET hub.mode=subscribe on a POST node echoes the challenge for the right token, else 403", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "META_APP", "meta-app-secret");
    await putSecret(ws, "META_TOKEN", "meatyhamhock");
    const flow = await hookWith(ws, {
      preset: "meta",
      secret: "{{secrets.META_APP}}",
      verifyToken: "{{secrets.META_TOKEN}}",
    });
    // developers.facebook.com/docs/graph-api/webhooks/getting-started: the sample verification request.
    const query = "hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=meatyhamhock";
    const answered = await hook(`${flow.url}?${query}`, { method: "GET" });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe(TEXT);
    expect(await answered.text()).toBe("1158201444");
    const wrong = await hook(`${flow.url}?${query.replace("meatyhamhock", "meatyhamhoc")}`, {
      method: "GET",
    });
    await expectError(wrong, 403, "handshake_refused");
    // Not a handshake: a plain GET is still refused by the node's method.
    expect((await hook(flow.url, { method: "GET" })).status).toBe(405);
    expect(await loggedCalls(ws, flow.id, 3)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
      { outcome: "handshake_refused", status: 403, executionId: null, reason: "bad_verify_token" },
      { outcome: "method_not_allowed", status: 405, executionId: null, reason: null },
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("zoom: a signed endpoint.url_validation gets {plainToken, encryptedToken}", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "ZOOM", "zoom-secret-token");
    const flow = await hookWith(ws, { preset: "zoom", secret: "{{secrets.ZOOM}}" });
    // developers.zoom.us/docs/api/webhooks/#validate-your-webhook-endpoint: the example request body.
    const body = JSON.stringify({
      payload: { plainToken: "qgg8vlvZRS6UYooatFL8Aw" },
      event_ts: 1654503849680,
      event: "endpoint.url_validation",
    });
    const answered = await hook(flow.url, {
      headers: await zoomHeaders("zoom-secret-token", body),
      body,
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe("application/json");
    expect(await answered.json()).toEqual({
      plainToken: "qgg8vlvZRS6UYooatFL8Aw",
      encryptedToken: hex(await hmac("zoom-secret-token", "qgg8vlvZRS6UYooatFL8Aw")),
    });
    // Unsigned, it would be an HMAC oracle: refused as any forged call.
    const unsigned = await hook(flow.url, {
      headers: { "content-type": "application/json" },
      body,
    });
    await expectError(unsigned, 401, "invalid_signature");
    expect((await loggedCalls(ws, flow.id, 2)).map((entry) => entry.outcome)).toEqual([
      "handshake",
      "invalid_signature",
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("microsoft-graph: ?validationToken= is echoed as text/plain, decoded", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GRAPH", "client-state-secret");
    const flow = await hookWith(ws, { preset: "microsoft-graph", secret: "{{secrets.GRAPH}}" });
    // learn.microsoft.com/graph/change-notifications-delivery-webhooks: POST with the URL-encoded
    // token and an empty text/plain body; the answer is the decoded token within 10 s.
    const token =
      "Validation: Testing client application reachability for subscription Request-Id: 7d0b5c13";
    const answered = await hook(`${flow.url}?validationToken=${encodeURIComponent(token)}`, {
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "",
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe(TEXT);
    expect(await answered.text()).toBe(token);
    expect(await loggedCalls(ws, flow.id, 1)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("dropbox: GET ?challenge= on a POST node is echoed as text/plain with nosniff", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "DROPBOX", "dropbox-app-secret");
    const flow = await hookWith(ws, { preset: "dropbox", secret: "{{secrets.DROPBOX}}" });
    // www.dropbox.com/developers/reference/webhooks: `?challenge=abc123`, echoed with these headers.
    const answered = await hook(`${flow.url}?challenge=abc123`, { method: "GET" });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe(TEXT);
    expect(answered.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await answered.text()).toBe("abc123");
    expect(await loggedCalls(ws, flow.id, 1)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("x: GET ?crc_token= gets response_token sha256=<base64 HMAC>; a token that could be a body is refused", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "X_CONSUMER", "x-consumer-secret");
    const flow = await hookWith(ws, { preset: "x", secret: "{{secrets.X_CONSUMER}}" });
    // docs.x.com/x-api/webhooks/quickstart: the CRC is a GET with crc_token, answered in JSON.
    const crcToken = "challenge_string";
    const answered = await hook(`${flow.url}?crc_token=${crcToken}`, { method: "GET" });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe("application/json");
    expect(await answered.json()).toEqual({
      response_token: `sha256=${base64(await hmac("x-consumer-secret", crcToken))}`,
    });
    // An HMAC of `{"for_user_id":"1"}` would sign that body as a delivery: no such CRC is answered.
    const oracle = await hook(
      `${flow.url}?crc_token=${encodeURIComponent('{"for_user_id":"1"}')}`,
      { method: "GET" },
    );
    await expectError(oracle, 403, "handshake_refused");
    expect(await loggedCalls(ws, flow.id, 2)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
      { outcome: "handshake_refused", status: 403, executionId: null, reason: "bad_token" },
    ]);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("asana: the X-Hook-Secret of the first call is echoed with an empty 200", async () => {
    const ws = await seedWorkspace();
    const flow = await hookWith(ws, { preset: "asana" });
    // developers.asana.com/reference/createwebhook: the example handshake's secret, echoed.
    const secret = "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81";
    const answered = await hook(flow.url, { headers: { "x-hook-secret": secret } });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("x-hook-secret")).toBe(secret);
    expect(await answered.text()).toBe("");
    expect(await loggedCalls(ws, flow.id, 1)).toEqual([
      { outcome: "handshake", status: 200, executionId: null, reason: null },
    ]);
    // The kept secret is a credential: the request log never shows it.
    const page = await expectJson<{ data: { headers: Record<string, string> }[] }>(
      await call("GET", `/v1/manage/workflows/${flow.id}/requests`, { token: ws.ownerToken }),
      200,
    );
    expect(page.data[0]?.headers["x-hook-secret"]).toBe("[redacted]");
    expect(JSON.stringify(page)).not.toContain(secret);
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("refuses meta without a verifyToken template and asana with a secret, every problem listed", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad handshakes",
        slug: "bad-handshakes",
        nodes: [
          { type: "webhook", verify: { preset: "meta", secret: "{{secrets.APP}}" } },
          {
            key: "plain",
            type: "webhook",
            verify: { preset: "meta", secret: "{{secrets.APP}}", verifyToken: "meatyhamhock" },
          },
          { key: "asana", type: "webhook", verify: { preset: "asana", secret: "{{secrets.A}}" } },
          {
            key: "zoom",
            type: "webhook",
            verify: { preset: "zoom", secret: "{{secrets.Z}}", verifyToken: "{{secrets.T}}" },
          },
        ],
        connections: [],
      },
    });
    const body = await expectJson<{
      error: { details: { field: string; code: string }[] };
    }>(response, 400);
    expect(body.error.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(
      [
        "nodes[0].verify.verifyToken invalid_secret",
        "nodes[1].verify.verifyToken invalid_secret",
        "nodes[2].verify.secret not_allowed",
        "nodes[3].verify.verifyToken not_allowed",
      ].sort(),
    );
  });
});
