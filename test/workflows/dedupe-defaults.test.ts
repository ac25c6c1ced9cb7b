/**
 * Deduplication by default (docs/webhooks.md#deduplication): a node with `verify` and no `dedupe`
 * dedupes on the preset's delivery id, and where the preset signs no timestamp (github, shopify,
 * twilio, hmac-sha256 and the other body HMACs) on the signature too, for up to 7 days; `dedupe: false` turns it off; the
 * default is decided when a call arrives, so a definition saved without it gets it.
 */
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks";
import { describe, expect, it } from "vitest";
import type { WebhookVerify } from "../../src/workflows/nodes/types";
import { dedupePlan, SIGNATURE_PRESETS } from "../../src/workflows/nodes/webhook-checks";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import {
  createWorkflow,
  executionCount,
  githubSignature,
  hook,
  putSecret,
} from "../helpers/workflows";

const BODY = '{"action":"opened","number":42}';
const GH = { preset: "github", secret: "{{secrets.GH}}" };

async function githubFlow(ws: Workspace, extra: Record<string, unknown> = {}) {
  await putSecret(ws, "GH", "gh-secret");
  return createWorkflow(ws, { nodes: [{ type: "webhook", verify: GH, ...extra }] });
}

const githubHeaders = async (delivery?: string) => ({
  "content-type": "application/json",
  "x-hub-signature-256": await githubSignature("gh-secret", BODY),
  ...(delivery ? { "x-github-delivery": delivery } : {}),
});

const executionOf = async (answer: Response) =>
  (await expectJson<{ executionId: string }>(answer, 200)).executionId;

describe("deduplication by default", () => {
  it("github: a replay of a signed call is answered as the first, with no dedupe setting", async () => {
    const ws = await seedWorkspace();
    const flow = await githubFlow(ws);
    // The stored node has no dedupe: the default is the run time's, as for a node saved before it.
    expect(flow.nodes[0]).not.toHaveProperty("dedupe");
    const url = flow.webhookUrls.webhook_1 as string;
    const headers = await githubHeaders("72d3162e-cc78-11e3-81ab-4c9367dc0958");
    const first = await hook(url, { headers, body: BODY });
    const executionId = await executionOf(first);
    expect(first.headers.get("x-deduplicated")).toBeNull();
    const replay = await hook(url, { headers, body: BODY });
    expect(await executionOf(replay)).toBe(executionId);
    expect(replay.headers.get("x-deduplicated")).toBe("true");
    // The delivery id is not signed: a replay with another, or none, is known by its signature.
    for (const changed of [await githubHeaders("another-id"), await githubHeaders()]) {
      const again = await hook(url, { headers: changed, body: BODY });
      expect(again.headers.get("x-deduplicated")).toBe("true");
    }
    // As is the signature written in capitals (it verifies too) with yet another delivery id.
    const upper = {
      ...(await githubHeaders("third-id")),
      "x-hub-signature-256": headers["x-hub-signature-256"].toUpperCase(),
    };
    expect((await hook(url, { headers: upper, body: BODY })).headers.get("x-deduplicated")).toBe(
      "true",
    );
    expect(await executionCount(ws, flow.id)).toBe(1);
  });

  it("dedupe: false turns the default off: the replay starts a second execution", async () => {
    const ws = await seedWorkspace();
    const flow = await githubFlow(ws, { dedupe: false });
    expect(flow.nodes[0]?.dedupe).toBe(false);
    const url = flow.webhookUrls.webhook_1 as string;
    const headers = await githubHeaders("d-1");
    const first = await executionOf(await hook(url, { headers, body: BODY }));
    const replay = await hook(url, { headers, body: BODY });
    expect(await executionOf(replay)).not.toBe(first);
    expect(replay.headers.get("x-deduplicated")).toBeNull();
    expect(await executionCount(ws, flow.id)).toBe(2);
  });

  it("hmac-sha256, which sends no delivery id: a replay is known by its signature", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "MINE", "my-secret");
    const verify = { preset: "hmac-sha256", secret: "{{secrets.MINE}}", header: "x-signature" };
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
    const url = flow.webhookUrls.webhook_1 as string;
    const send = async (body: string) =>
      hook(url, {
        headers: {
          "content-type": "application/json",
          "x-signature": (await githubSignature("my-secret", body)).slice("sha256=".length),
        },
        body,
      });
    const first = await executionOf(await send(BODY));
    const replay = await send(BODY);
    expect(await executionOf(replay)).toBe(first);
    expect(replay.headers.get("x-deduplicated")).toBe("true");
    // Another body is another signature: another delivery.
    expect(await executionOf(await send('{"action":"closed"}'))).not.toBe(first);
    expect(await executionCount(ws, flow.id)).toBe(2);
  });

  it("twilio: a replay with another idempotency token is known by its signature", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "TWILIO", "12345");
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", verify: { preset: "twilio", secret: "{{secrets.TWILIO}}" } }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const params = { MessageSid: "SM1", Body: "hi" };
    const send = (token: string) =>
      hook(url, {
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-twilio-signature": getExpectedTwilioSignature("12345", url, params),
          "i-twilio-idempotency-token": token,
        },
        body: new URLSearchParams(params).toString(),
      });
    const first = await executionOf(await send("token-1"));
    for (const token of ["token-1", "token-2"]) {
      const replay = await send(token);
      expect(await executionOf(replay)).toBe(first);
      expect(replay.headers.get("x-deduplicated")).toBe("true");
    }
    expect(await executionCount(ws, flow.id)).toBe(1);
  });
});

describe("the dedupe window", () => {
  const save = (ws: Workspace, dedupe: unknown, verify: unknown = GH) =>
    call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Window",
        slug: `window-${crypto.randomUUID().slice(0, 8)}`,
        nodes: [{ type: "webhook", verify, dedupe }],
        connections: [],
      },
    });
  const stored = async (response: Response) =>
    (await expectJson<{ nodes: { dedupe: unknown }[] }>(response, 201)).nodes[0]?.dedupe;

  it("accepts up to 7 days, refuses more naming the field; defaults to 7 days where nothing is stamped", async () => {
    const ws = await seedWorkspace();
    expect(await stored(await save(ws, { windowSeconds: 86_401 }))).toEqual({
      windowSeconds: 86_401,
    });
    expect(await stored(await save(ws, { windowSeconds: 604_800 }))).toEqual({
      windowSeconds: 604_800,
    });
    const refused = await expectJson<{
      error: { code: string; details: { field: string; code: string }[] };
    }>(await save(ws, { windowSeconds: 604_801 }), 400);
    expect(refused.error.details).toEqual([
      expect.objectContaining({ field: "nodes[0].dedupe.windowSeconds", code: "out_of_range" }),
    ]);
    expect(await stored(await save(ws, {}))).toEqual({ windowSeconds: 604_800 });
    const stripe = { preset: "stripe", secret: "{{secrets.S}}" };
    expect(await stored(await save(ws, {}, stripe))).toEqual({ windowSeconds: 86_400 });
  });
});

describe("dedupePlan, decided when a call arrives", () => {
  const verify = (preset: WebhookVerify["preset"]): WebhookVerify => ({
    preset,
    secret: "{{secrets.S}}",
    toleranceSeconds: 300,
    ...(preset.startsWith("hmac-") ? { header: "x-sig", encoding: "hex" } : {}),
  });
  const ids: Record<WebhookVerify["preset"], string | null> = {
    github: "headers.x-github-delivery",
    stripe: "body.id",
    slack: "body.event_id",
    shopify: "headers.x-shopify-webhook-id",
    twilio: "headers.i-twilio-idempotency-token",
    "standard-webhooks": "headers.webhook-id",
    "hmac-sha256": null,
    "hmac-sha1": null,
    // The handshake presets' senders send no delivery id (docs/webhooks.md#handshakes).
    meta: null,
    zoom: null,
    "microsoft-graph": null,
    dropbox: null,
    x: null,
    asana: null,
    // Each sender's delivery id as its documentation names it; null where it sends none.
    gitlab: "headers.x-gitlab-event-uuid",
    bitbucket: "headers.x-request-uuid",
    discord: "body.id",
    sendgrid: null,
    mailgun: "body.signature.token",
    postmark: null,
    paddle: "body.event_id",
    linear: "headers.linear-delivery",
    intercom: "body.id",
    square: "body.event_id",
    hubspot: null,
    typeform: "body.event_id",
    calendly: null,
    mux: "body.id",
    vercel: "body.id",
    pagerduty: "body.event.id",
    zendesk: "headers.x-zendesk-webhook-invocation-id",
    sentry: "headers.request-id",
    jira: "headers.x-atlassian-webhook-identifier",
    woocommerce: "headers.x-wc-webhook-delivery-id",
    lemonsqueezy: null,
    docusign: null,
    clerk: "headers.svix-id",
    resend: "headers.svix-id",
  };
  // HMACs of the body and nothing stamped; gitlab's token and postmark's password are the same on
  // every call, so they name no delivery and their id is the key.
  const unstamped = [
    "meta",
    "dropbox",
    "x",
    "asana",
    "github",
    "shopify",
    "twilio",
    "hmac-sha256",
    "hmac-sha1",
    "bitbucket",
    "intercom",
    "square",
    "typeform",
    "vercel",
    "pagerduty",
    "sentry",
    "jira",
    "woocommerce",
    "lemonsqueezy",
    "docusign",
  ];

  it.each(SIGNATURE_PRESETS)("%s: a node saved with verify and no dedupe dedupes", (preset) => {
    // As stored before the default existed: no dedupe at all.
    const plan = dedupePlan({ key: "hook", verify: verify(preset) });
    const id = ids[preset];
    // Where nothing is stamped, the delivery id is not signed either: the signature names it.
    expect(plan).toEqual({
      keys: id && !unstamped.includes(preset) ? [`{{hook.${id}}}`] : [],
      signature: unstamped.includes(preset),
      windowSeconds: unstamped.includes(preset) ? 604_800 : 86_400,
    });
    expect(dedupePlan({ key: "hook", verify: verify(preset), dedupe: false })).toBeNull();
  });

  it("an explicit dedupe keeps its key and window; no verify, no default", () => {
    const dedupe = { key: "{{hook.body.orderId}}", windowSeconds: 60 };
    expect(dedupePlan({ key: "hook", verify: verify("github"), dedupe })).toEqual({
      keys: [dedupe.key],
      signature: true,
      windowSeconds: 60,
    });
    expect(dedupePlan({ key: "hook", dedupe })).toEqual({
      keys: [dedupe.key],
      signature: false,
      windowSeconds: 60,
    });
    expect(dedupePlan({ key: "hook" })).toBeNull();
  });
});
