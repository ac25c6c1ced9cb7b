/**
 * The signature presets, one row each (docs/webhooks.md#presets): where the sender puts its
 * signature, what it signs, with which algorithm and encoding, the timestamp it signs, and the
 * delivery id a node dedupes on by default. `signatures.ts` checks every row the same way; a row
 * that a table cannot say has `check: "own"`, its check in signatures.ts's OWN_CHECKS (twilio).
 * Data only: the node schemas (and so the dashboard) read it without any checking code.
 */
import { HANDSHAKE_ROWS } from "./handshake-rows";
import { BODY, bodyMac, field, METHOD, pairs, type Row, standard, TS, URL_ } from "./preset-rows";

/** Every preset, in the order the docs and the editor list them. */
export const PRESETS = {
  github: bodyMac(
    "GitHub: HMAC-SHA256 of the body, `X-Hub-Signature-256: sha256=<hex>`",
    "hmac-sha256",
    "x-hub-signature-256",
    "hex",
    "sha256=",
    "headers.x-github-delivery",
  ),
  stripe: {
    about: "Stripe: `Stripe-Signature: t=<s>,v1=<hex>`, HMAC-SHA256 of `t.body`",
    algorithm: "hmac-sha256",
    signature: pairs("stripe-signature", ",", "v1="),
    encoding: "hex",
    timestamp: { tag: "t=", unit: "s" },
    signed: [TS, ".", BODY],
    dedupe: "body.id",
  },
  slack: {
    about: "Slack: `X-Slack-Signature: v0=<hex>`, HMAC-SHA256 of `v0:<timestamp>:body`",
    algorithm: "hmac-sha256",
    signature: { header: "x-slack-signature", tag: "v0=" },
    encoding: "hex",
    timestamp: { header: "x-slack-request-timestamp", unit: "s" },
    signed: ["v0:", TS, ":", BODY],
    dedupe: "body.event_id",
  },
  shopify: bodyMac(
    "Shopify: HMAC-SHA256 of the body, base64 in `X-Shopify-Hmac-Sha256`",
    "hmac-sha256",
    "x-shopify-hmac-sha256",
    "base64",
    "",
    "headers.x-shopify-webhook-id",
  ),
  twilio: {
    about:
      "Twilio: HMAC-SHA1 of the URL and the sorted form fields, base64 in `X-Twilio-Signature`",
    check: "own",
    signatureHeader: "x-twilio-signature",
    dedupe: "headers.i-twilio-idempotency-token",
  },
  "standard-webhooks": standard(
    "webhook-",
    "Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`",
  ),
  "hmac-sha256": {
    about: "Any sender that signs the body with HMAC-SHA256 into a header of its own",
    algorithm: "hmac-sha256",
    signature: "setting",
    encoding: "setting",
    signed: [BODY],
  },
  "hmac-sha1": {
    about: "Any sender that signs the body with HMAC-SHA1 into a header of its own",
    algorithm: "hmac-sha1",
    signature: "setting",
    encoding: "setting",
    signed: [BODY],
  },
  gitlab: {
    about: "GitLab: the secret token itself in `X-Gitlab-Token` (nothing is signed)",
    algorithm: "token",
    signature: { header: "x-gitlab-token", tag: "" },
    signed: [],
    dedupe: "headers.x-gitlab-event-uuid",
  },
  bitbucket: bodyMac(
    "Bitbucket: HMAC-SHA256 of the body, `X-Hub-Signature: sha256=<hex>`",
    "hmac-sha256",
    "x-hub-signature",
    "hex",
    "sha256=",
    "headers.x-request-uuid",
  ),
  discord: {
    about:
      "Discord interactions: Ed25519 of `timestamp + body` in `X-Signature-Ed25519`; the secret is the app's public key (hex)",
    algorithm: "ed25519",
    secret: "hex",
    signature: { header: "x-signature-ed25519", tag: "" },
    encoding: "hex",
    timestamp: { header: "x-signature-timestamp", unit: "s" },
    signed: [TS, BODY],
    dedupe: "body.id",
  },
  sendgrid: {
    about:
      "SendGrid Event Webhook: ECDSA P-256 of `timestamp + body`; the secret is the verification key (base64)",
    algorithm: "ecdsa-p256",
    secret: "spki",
    signature: { header: "x-twilio-email-event-webhook-signature", tag: "" },
    encoding: "base64",
    timestamp: { header: "x-twilio-email-event-webhook-timestamp", unit: "s" },
    signed: [TS, BODY],
  },
  mailgun: {
    about:
      "Mailgun: HMAC-SHA256 of `signature.timestamp + signature.token`, hex in the body's `signature.signature`",
    algorithm: "hmac-sha256",
    signature: { field: "signature.signature" },
    encoding: "hex",
    timestamp: { field: "signature.timestamp", unit: "s" },
    signed: [TS, field("signature.token")],
    dedupe: "body.signature.token",
  },
  postmark: {
    about: 'Postmark: basic auth, `Authorization: Basic …`; the secret is `"user:password"`',
    algorithm: "basic",
    signature: { header: "authorization", tag: "Basic " },
    signed: [],
  },
  paddle: {
    about: "Paddle Billing: `Paddle-Signature: ts=<s>;h1=<hex>`, HMAC-SHA256 of `ts:body`",
    algorithm: "hmac-sha256",
    signature: pairs("paddle-signature", ";", "h1="),
    encoding: "hex",
    timestamp: { tag: "ts=", unit: "s" },
    signed: [TS, ":", BODY],
    dedupe: "body.event_id",
  },
  linear: {
    about:
      "Linear: HMAC-SHA256 of the body, hex in `Linear-Signature`; the body's `webhookTimestamp` (ms) is checked",
    algorithm: "hmac-sha256",
    signature: { header: "linear-signature", tag: "" },
    encoding: "hex",
    timestamp: { field: "webhookTimestamp", unit: "ms" },
    signed: [BODY],
    dedupe: "headers.linear-delivery",
  },
  intercom: bodyMac(
    "Intercom: HMAC-SHA1 of the body, `X-Hub-Signature: sha1=<hex>`",
    "hmac-sha1",
    "x-hub-signature",
    "hex",
    "sha1=",
    "body.id",
  ),
  square: {
    about:
      "Square: HMAC-SHA256 of the notification URL + body, base64 in `X-Square-Hmacsha256-Signature`",
    algorithm: "hmac-sha256",
    signature: { header: "x-square-hmacsha256-signature", tag: "" },
    encoding: "base64",
    signed: [URL_, BODY],
    dedupe: "body.event_id",
  },
  hubspot: {
    about:
      "HubSpot (v3): HMAC-SHA256 of method + URL + body + timestamp, base64 in `X-HubSpot-Signature-v3`",
    algorithm: "hmac-sha256",
    signature: { header: "x-hubspot-signature-v3", tag: "" },
    encoding: "base64",
    timestamp: { header: "x-hubspot-request-timestamp", unit: "ms" },
    signed: [METHOD, { from: "url", decoded: true }, BODY, TS],
  },
  typeform: bodyMac(
    "Typeform: HMAC-SHA256 of the body, `Typeform-Signature: sha256=<base64>`",
    "hmac-sha256",
    "typeform-signature",
    "base64",
    "sha256=",
    "body.event_id",
  ),
  calendly: {
    about: "Calendly: `Calendly-Webhook-Signature: t=<s>,v1=<hex>`, HMAC-SHA256 of `t.body`",
    algorithm: "hmac-sha256",
    signature: pairs("calendly-webhook-signature", ",", "v1="),
    encoding: "hex",
    timestamp: { tag: "t=", unit: "s" },
    signed: [TS, ".", BODY],
  },
  mux: {
    about: "Mux: `Mux-Signature: t=<s>,v1=<hex>`, HMAC-SHA256 of `t.body`",
    algorithm: "hmac-sha256",
    signature: pairs("mux-signature", ",", "v1="),
    encoding: "hex",
    timestamp: { tag: "t=", unit: "s" },
    signed: [TS, ".", BODY],
    dedupe: "body.id",
  },
  vercel: bodyMac(
    "Vercel: HMAC-SHA1 of the body, hex in `X-Vercel-Signature`",
    "hmac-sha1",
    "x-vercel-signature",
    "hex",
    "",
    "body.id",
  ),
  pagerduty: {
    about: "PagerDuty (v3): HMAC-SHA256 of the body, `X-PagerDuty-Signature: v1=<hex>,v1=<hex>`",
    algorithm: "hmac-sha256",
    signature: pairs("x-pagerduty-signature", ",", "v1="),
    encoding: "hex",
    signed: [BODY],
    dedupe: "body.event.id",
  },
  zendesk: {
    about:
      "Zendesk: HMAC-SHA256 of timestamp + body, base64 in `X-Zendesk-Webhook-Signature` (ISO 8601 timestamp)",
    algorithm: "hmac-sha256",
    signature: { header: "x-zendesk-webhook-signature", tag: "" },
    encoding: "base64",
    timestamp: { header: "x-zendesk-webhook-signature-timestamp", unit: "iso" },
    signed: [TS, BODY],
    dedupe: "headers.x-zendesk-webhook-invocation-id",
  },
  sentry: bodyMac(
    "Sentry integrations: HMAC-SHA256 of the body, hex in `Sentry-Hook-Signature`",
    "hmac-sha256",
    "sentry-hook-signature",
    "hex",
    "",
    "headers.request-id",
  ),
  jira: bodyMac(
    "Jira (Cloud webhooks with a secret): HMAC-SHA256 of the body, `X-Hub-Signature: sha256=<hex>`",
    "hmac-sha256",
    "x-hub-signature",
    "hex",
    "sha256=",
    "headers.x-atlassian-webhook-identifier",
  ),
  woocommerce: bodyMac(
    "WooCommerce: HMAC-SHA256 of the body, base64 in `X-WC-Webhook-Signature`",
    "hmac-sha256",
    "x-wc-webhook-signature",
    "base64",
    "",
    "headers.x-wc-webhook-delivery-id",
  ),
  lemonsqueezy: bodyMac(
    "Lemon Squeezy: HMAC-SHA256 of the body, hex in `X-Signature`",
    "hmac-sha256",
    "x-signature",
    "hex",
    "",
  ),
  docusign: {
    about:
      "DocuSign Connect: HMAC-SHA256 of the body, base64 in `X-DocuSign-Signature-1` (or -2 while keys rotate)",
    algorithm: "hmac-sha256",
    signature: { header: ["x-docusign-signature-1", "x-docusign-signature-2"], tag: "" },
    encoding: "base64",
    signed: [BODY],
  },
  clerk: standard(
    "svix-",
    "Clerk (Svix): `svix-id`, `svix-timestamp`, `svix-signature: v1,<base64>`",
  ),
  resend: standard(
    "svix-",
    "Resend (Svix): `svix-id`, `svix-timestamp`, `svix-signature: v1,<base64>`",
  ),
  ...HANDSHAKE_ROWS,
} satisfies Record<string, Row>;
