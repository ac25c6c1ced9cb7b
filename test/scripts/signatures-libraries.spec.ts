/**
 * The presets (docs/webhooks.md#presets) against the providers' official npm libraries, in Node:
 * those libraries need Node's `crypto` and `Buffer`, which the Worker's runtime does not give
 * (test/workflows/signatures-providers.test.ts checks every preset in workerd). Where a library
 * signs (`@octokit/webhooks-methods`, `svix`, `@hubspot/api-client`), the call it signs verifies;
 * where it only verifies (`discord-interactions`, `@sendgrid/eventwebhook`,
 * `@paddle/paddle-node-sdk`, `@mux/mux-node`, `@linear/sdk`, `square`, `@slack/bolt`,
 * `@shopify/shopify-api`), a call the library accepts is accepted by the preset too, and a
 * tampered one refused by both. Nothing is written.
 */
// Shopify's library runs on the Fetch API (Request, Response) this way.
import "@shopify/shopify-api/adapters/web-api";
import { createHmac, generateKeyPairSync, sign as signWith, timingSafeEqual } from "node:crypto";
import { Signature as HubSpotSignature } from "@hubspot/api-client";
import { LinearWebhookClient } from "@linear/sdk/webhooks";
import Mux from "@mux/mux-node";
import { sign as githubSign } from "@octokit/webhooks-methods";
import { NodeRuntime, Webhooks as PaddleWebhooks } from "@paddle/paddle-node-sdk";
import { EventWebhook } from "@sendgrid/eventwebhook";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { isValidSlackRequest } from "@slack/bolt";
import { verifyKey } from "discord-interactions";
import { WebhooksHelper } from "square";
import { Webhook as Svix } from "svix";
import { describe, expect, it } from "vitest";
import type { WebhookVerify } from "../../src/workflows/nodes/types";
import { checkSignature } from "../../src/workflows/webhook/signatures";

// The Worker's runtime has crypto.subtle.timingSafeEqual (platform/crypto.ts uses it); Node's
// crypto module has the same comparison.
const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown };
subtle.timingSafeEqual ??= (a: ArrayBufferView, b: ArrayBufferView) =>
  timingSafeEqual(
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
    new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
  );
// The SDK's Node build finds Node's crypto this way (as `new Paddle()` does).
NodeRuntime.initialize();

const encoder = new TextEncoder();
const BODY = '{"id":"evt_1","event_id":"evt_1","type":"created","webhookTimestamp":0}';
const settings = (preset: string) =>
  ({ preset, secret: "{{secrets.S}}", toleranceSeconds: 300 }) as WebhookVerify;
const check = (preset: string, secret: string, headers: Record<string, string>, body = BODY) =>
  checkSignature(settings(preset), secret, {
    url: "https://edge.test/w",
    headers,
    body: encoder.encode(body),
  });
const nowS = () => String(Math.floor(Date.now() / 1000));
const hmacHex = (secret: string, message: string) =>
  createHmac("sha256", secret).update(message).digest("hex");

describe("the providers' own libraries", () => {
  it("github: @octokit/webhooks-methods signs", async () => {
    const headers = { "x-hub-signature-256": await githubSign("gh-secret", BODY) };
    expect(await check("github", "gh-secret", headers)).toBeNull();
    expect(await check("github", "other", headers)).toBe("bad_signature");
    expect(await check("github", "gh-secret", headers, `${BODY} `)).toBe("bad_signature");
  });

  it.each(["clerk", "resend", "standard-webhooks"])("%s: svix signs", async (preset) => {
    const secret = `whsec_${Buffer.from("a Svix signing secret, 24+").toString("base64")}`;
    const prefix = preset === "standard-webhooks" ? "webhook-" : "svix-";
    const at = new Date();
    const signature = new Svix(secret).sign("msg_1", at, BODY);
    const headers = {
      [`${prefix}id`]: "msg_1",
      [`${prefix}timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${prefix}signature`]: signature,
    };
    expect(await check(preset, secret, headers)).toBeNull();
    expect(await check(preset, secret, headers, `${BODY} `)).toBe("bad_signature");
    const other = `whsec_${Buffer.from("another Svix signing key!").toString("base64")}`;
    expect(await check(preset, other, headers)).toBe("bad_signature");
  });

  it("discord: discord-interactions' verifyKey and the preset agree", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const publicHex = publicKey
      .export({ format: "der", type: "spki" })
      .subarray(12)
      .toString("hex");
    const timestamp = nowS();
    const signature = signWith(null, Buffer.from(timestamp + BODY), privateKey).toString("hex");
    const headers = { "x-signature-ed25519": signature, "x-signature-timestamp": timestamp };
    expect(await verifyKey(BODY, signature, timestamp, publicHex)).toBe(true);
    expect(await check("discord", publicHex, headers)).toBeNull();
    expect(await verifyKey(`${BODY} `, signature, timestamp, publicHex)).toBe(false);
    expect(await check("discord", publicHex, headers, `${BODY} `)).toBe("bad_signature");
  });

  it("sendgrid: @sendgrid/eventwebhook's verifySignature and the preset agree", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const key = publicKey.export({ format: "der", type: "spki" }).toString("base64");
    const timestamp = nowS();
    const signature = signWith("sha256", Buffer.from(timestamp + BODY), privateKey).toString(
      "base64",
    );
    const headers = {
      "x-twilio-email-event-webhook-signature": signature,
      "x-twilio-email-event-webhook-timestamp": timestamp,
    };
    const library = new EventWebhook();
    const ecdsa = library.convertPublicKeyToECDSA(key);
    expect(library.verifySignature(ecdsa, BODY, signature, timestamp)).toBe(true);
    expect(await check("sendgrid", key, headers)).toBeNull();
    expect(library.verifySignature(ecdsa, `${BODY} `, signature, timestamp)).toBe(false);
    expect(await check("sendgrid", key, headers, `${BODY} `)).toBe("bad_signature");
  });

  it("paddle: @paddle/paddle-node-sdk's isSignatureValid and the preset agree", async () => {
    const ts = nowS();
    const header = `ts=${ts};h1=${hmacHex("pdl_secret", `${ts}:${BODY}`)}`;
    const paddle = new PaddleWebhooks();
    expect(await paddle.isSignatureValid(BODY, "pdl_secret", header)).toBe(true);
    expect(await check("paddle", "pdl_secret", { "paddle-signature": header })).toBeNull();
    expect(await paddle.isSignatureValid(`${BODY} `, "pdl_secret", header)).toBe(false);
    expect(await check("paddle", "pdl_secret", { "paddle-signature": header }, `${BODY} `)).toBe(
      "bad_signature",
    );
  });

  it("mux: @mux/mux-node's verifySignature and the preset agree", async () => {
    const ts = nowS();
    const headers = { "mux-signature": `t=${ts},v1=${hmacHex("mux-secret", `${ts}.${BODY}`)}` };
    const mux = new Mux({ tokenId: "id", tokenSecret: "secret" });
    await expect(
      mux.webhooks.verifySignature(BODY, headers, "mux-secret"),
    ).resolves.toBeUndefined();
    expect(await check("mux", "mux-secret", headers)).toBeNull();
    await expect(mux.webhooks.verifySignature(`${BODY} `, headers, "mux-secret")).rejects.toThrow();
    expect(await check("mux", "mux-secret", headers, `${BODY} `)).toBe("bad_signature");
  });

  it("linear: @linear/sdk's LinearWebhookClient.verify and the preset agree", async () => {
    const body = BODY.replace('"webhookTimestamp":0', `"webhookTimestamp":${Date.now()}`);
    const headers = { "linear-signature": hmacHex("lin-secret", body) };
    const linear = new LinearWebhookClient("lin-secret");
    expect(linear.verify(Buffer.from(body), headers["linear-signature"])).toBe(true);
    expect(await check("linear", "lin-secret", headers, body)).toBeNull();
    expect(() => linear.verify(Buffer.from(`${body} `), headers["linear-signature"])).toThrow();
    expect(await check("linear", "lin-secret", headers, `${body} `)).toBe("bad_signature");
  });

  it("square: square's WebhooksHelper and the preset agree", async () => {
    const url = "https://edge.test/w";
    const signature = createHmac("sha256", "sq-key")
      .update(url + BODY)
      .digest("base64");
    const headers = { "x-square-hmacsha256-signature": signature };
    const verify = (body: string, key: string) =>
      WebhooksHelper.verifySignature({
        requestBody: body,
        signatureHeader: signature,
        signatureKey: key,
        notificationUrl: url,
      });
    expect(await verify(BODY, "sq-key")).toBe(true);
    expect(await check("square", "sq-key", headers)).toBeNull();
    expect(await verify(`${BODY} `, "sq-key")).toBe(false);
    expect(await check("square", "sq-key", headers, `${BODY} `)).toBe("bad_signature");
    expect(await verify(BODY, "other")).toBe(false);
    expect(await check("square", "other", headers)).toBe("bad_signature");
  });

  it("hubspot: @hubspot/api-client's Signature (v3) signs", async () => {
    const timestamp = Date.now();
    const options = { clientSecret: "hs-secret", requestBody: BODY, url: "https://edge.test/w" };
    const signature = HubSpotSignature.getSignature("POST", "v3", {
      ...options,
      timestamp,
      signature: "",
    });
    const headers = {
      "x-hubspot-signature-v3": signature,
      "x-hubspot-request-timestamp": String(timestamp),
    };
    expect(
      HubSpotSignature.isValid({ ...options, signature, timestamp, signatureVersion: "v3" }),
    ).toBe(true);
    expect(await check("hubspot", "hs-secret", headers)).toBeNull();
    expect(await check("hubspot", "hs-secret", headers, `${BODY} `)).toBe("bad_signature");
    expect(await check("hubspot", "other", headers)).toBe("bad_signature");
  });

  it("slack: @slack/bolt's isValidSlackRequest and the preset agree", async () => {
    const timestamp = Number(nowS());
    const signature = `v0=${hmacHex("sl-secret", `v0:${timestamp}:${BODY}`)}`;
    const headers = {
      "x-slack-signature": signature,
      "x-slack-request-timestamp": String(timestamp),
    };
    const valid = (body: string, signingSecret: string) =>
      isValidSlackRequest({
        signingSecret,
        body,
        headers: { "x-slack-signature": signature, "x-slack-request-timestamp": timestamp },
      });
    expect(valid(BODY, "sl-secret")).toBe(true);
    expect(await check("slack", "sl-secret", headers)).toBeNull();
    expect(valid(`${BODY} `, "sl-secret")).toBe(false);
    expect(await check("slack", "sl-secret", headers, `${BODY} `)).toBe("bad_signature");
    expect(valid(BODY, "other")).toBe(false);
    expect(await check("slack", "other", headers)).toBe("bad_signature");
  });

  it("shopify: @shopify/shopify-api's webhooks.validate and the preset agree", async () => {
    const shopify = shopifyApi({
      apiKey: "key",
      apiSecretKey: "shop-secret",
      apiVersion: ApiVersion.October24,
      isEmbeddedApp: false,
      hostName: "edge.test",
      logger: { level: 0 },
    });
    const hmac = createHmac("sha256", "shop-secret").update(BODY).digest("base64");
    const headers = {
      "x-shopify-hmac-sha256": hmac,
      "x-shopify-topic": "orders/create",
      "x-shopify-api-version": "2024-10",
      "x-shopify-shop-domain": "shop.myshopify.com",
      "x-shopify-webhook-id": "wh_1",
    };
    const valid = async (rawBody: string) => {
      const rawRequest = new Request("https://edge.test/w", { method: "POST", headers });
      return (await shopify.webhooks.validate({ rawBody, rawRequest, rawResponse: new Response() }))
        .valid;
    };
    expect(await valid(BODY)).toBe(true);
    expect(await check("shopify", "shop-secret", headers)).toBeNull();
    expect(await valid(`${BODY} `)).toBe(false);
    expect(await check("shopify", "shop-secret", headers, `${BODY} `)).toBe("bad_signature");
    expect(await check("shopify", "other", headers)).toBe("bad_signature");
  });
});
