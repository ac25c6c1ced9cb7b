/**
 * Every preset of the table (docs/webhooks.md#presets) in workerd: a call signed as the provider's
 * documentation says passes; a tampered body, a wrong secret and (where a timestamp is signed) a
 * stale one are refused. Each signature is made here with WebCrypto, the provider's algorithm
 * spelled out apart from the table (the providers' own libraries need Node: they sign in
 * test/scripts/signatures-libraries.test.ts). SendGrid's case is the vector of its own library's
 * tests (@sendgrid/eventwebhook, eventwebhook.spec.js).
 */
import { describe, expect, it } from "vitest";
import type { WebhookVerify } from "../../src/workflows/nodes/types";
import { SIGNATURE_PRESETS } from "../../src/workflows/nodes/webhook-checks";
import { checkSignature, verifyCall } from "../../src/workflows/webhook/signatures";

const encoder = new TextEncoder();
const NOW = 1_767_225_600; // s
const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

async function mac(hash: "SHA-256" | "SHA-1", key: string | Uint8Array, message: string) {
  const raw = typeof key === "string" ? encoder.encode(key) : key;
  const imported = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash }, false, [
    "sign",
  ]);
  return crypto.subtle.sign("HMAC", imported, encoder.encode(message));
}
const sha256 = (key: string | Uint8Array, message: string) => mac("SHA-256", key, message);

/** A signed call: its headers, and the URL or method when the provider signs them. */
type Signed = { headers: Record<string, string>; url?: string; method?: string };
type Case = {
  /** The secret as the node's workspace secret holds it, and another that must not verify. */
  secret: string;
  wrong: string;
  body: string;
  sign: (secret: string, body: string) => Promise<Signed>;
  /** The time the call is checked at (s); a timestamp-signing case is stale 301 s later. */
  now?: number;
  stamped?: boolean;
  /** A body the signature does not cover; null where nothing of the body is signed. */
  tamper?: ((body: string) => string) | null;
  settings?: Partial<WebhookVerify>;
};

const JSON_BODY = '{"id":"evt_1","event_id":"evt_1","type":"created","amount":42}';
const ts = String(NOW);
/** A body HMAC into `header`, `prefix` + hex or base64. */
const bodyMac =
  (header: string, prefix: string, encode: typeof hex, hash: "SHA-256" | "SHA-1" = "SHA-256") =>
  async (secret: string, body: string): Promise<Signed> => ({
    headers: { [header]: prefix + encode(await mac(hash, secret, body)) },
  });
/** Svix's scheme (docs.svix.com "Verifying payloads manually") under `prefix`. */
const svix = (prefix: string) => async (secret: string, body: string) => {
  const key = Uint8Array.from(atob(secret.slice(6)), (c) => c.charCodeAt(0));
  const signature = b64(await sha256(key, `msg_1.${ts}.${body}`));
  return {
    headers: {
      [`${prefix}id`]: "msg_1",
      [`${prefix}timestamp`]: ts,
      [`${prefix}signature`]: `v1,${signature}`,
    },
  };
};
const WHSEC = `whsec_${btoa("a Svix signing secret, 24+")}`;
const WHSEC_2 = `whsec_${btoa("another Svix signing key!")}`;

const ed25519 = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
  "sign",
  "verify",
])) as CryptoKeyPair;
const otherEd25519 = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
  "sign",
  "verify",
])) as CryptoKeyPair;
const publicHex = async (pair: CryptoKeyPair) =>
  hex((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);

// @sendgrid/eventwebhook's own test vector (eventwebhook.spec.js): key, signature, timestamp, body.
const SENDGRID = {
  key: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE83T4O/n84iotIvIW4mdBgQ/7dAfSmpqIM8kF9mN1flpVKS3GRqe62gw+2fNNRaINXvVpiglSI8eNEc6wEA3F+g==",
  other:
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQ4LIFtWztlsF7skFqOncjD1lun4H5w8XOhyOArHW9RcIx/FfEzx6cikC/yPfUvwaX/JScE7Fc9CJD2afQ9Ok3Q==",
  signature:
    "MEUCIGHQVtGj+Y3LkG9fLcxf3qfI10QysgDWmMOVmxG0u6ZUAiEAyBiXDWzM+uOe5W0JuG+luQAbPIqHh89M15TluLtEZtM=",
  timestamp: "1600112502",
  body: `${JSON.stringify([{ email: "hello@world.com", event: "dropped", reason: "Bounced Address", sg_event_id: "ZHJvcC0xMDk5NDkxOS1MUnpYbF9OSFN0T0doUTRrb2ZTbV9BLTA", sg_message_id: "LRzXl_NHStOGhQ4kofSm_A.filterdrecv-p3mdw1-756b745b58-kmzbl-18-5F5FC76C-9.0", "smtp-id": "<LRzXl_NHStOGhQ4kofSm_A@ismtpd0039p1iad1.sendgrid.net>", timestamp: 1600112492 }])}\r\n`,
};

const mailgunBody = async (key: string, token: string) =>
  JSON.stringify({
    signature: { timestamp: ts, token, signature: hex(await sha256(key, ts + token)) },
    "event-data": { id: "ev_1", event: "delivered" },
  });

/** Each new preset as its provider's documentation describes it. */
const CASES: Record<string, Case> = {
  "hmac-sha1": {
    secret: "s1",
    wrong: "s2",
    body: JSON_BODY,
    sign: bodyMac("x-sig", "sha1=", hex, "SHA-1"),
    settings: { header: "x-sig", prefix: "sha1=", encoding: "hex" },
  },
  // docs.gitlab.com "Webhooks": the secret token as set, in X-Gitlab-Token.
  gitlab: {
    secret: "gl-token",
    wrong: "gl-other",
    body: JSON_BODY,
    tamper: null,
    sign: async (secret) => ({ headers: { "x-gitlab-token": secret } }),
  },
  // support.atlassian.com "Secure webhooks": X-Hub-Signature: sha256=<hex HMAC of the body>.
  bitbucket: {
    secret: "bb",
    wrong: "bx",
    body: JSON_BODY,
    sign: bodyMac("x-hub-signature", "sha256=", hex),
  },
  // discord.com/developers "Security and authorization": Ed25519 of timestamp + body, hex.
  discord: {
    secret: await publicHex(ed25519),
    wrong: await publicHex(otherEd25519),
    body: '{"id":"interaction_1","type":1}',
    stamped: true,
    sign: async (_secret, body) => ({
      headers: {
        "x-signature-ed25519": hex(
          await crypto.subtle.sign(
            { name: "Ed25519" },
            ed25519.privateKey,
            encoder.encode(ts + body),
          ),
        ),
        "x-signature-timestamp": ts,
      },
    }),
  },
  sendgrid: {
    secret: SENDGRID.key,
    wrong: SENDGRID.other,
    body: SENDGRID.body,
    now: Number(SENDGRID.timestamp),
    stamped: true,
    sign: async () => ({
      headers: {
        "x-twilio-email-event-webhook-signature": SENDGRID.signature,
        "x-twilio-email-event-webhook-timestamp": SENDGRID.timestamp,
      },
    }),
  },
  // documentation.mailgun.com "Securing webhooks": hex HMAC-SHA256 of timestamp + token.
  mailgun: {
    secret: "mg-key",
    wrong: "mg-other",
    body: await mailgunBody("mg-key", "tok_1"),
    stamped: true,
    tamper: (body) => body.replace("tok_1", "tok_2"),
    sign: async () => ({ headers: {} }),
  },
  // postmarkapp.com "Webhooks overview": basic auth credentials on the webhook URL.
  postmark: {
    secret: "user:pass",
    wrong: "user:guess",
    body: JSON_BODY,
    tamper: null,
    sign: async (secret) => ({ headers: { authorization: `Basic ${btoa(secret)}` } }),
  },
  // developer.paddle.com "Verify webhook signatures": ts=…;h1=<hex HMAC of ts:body>.
  paddle: {
    secret: "pdl_ntfset_1",
    wrong: "pdl_ntfset_2",
    body: JSON_BODY,
    stamped: true,
    sign: async (secret, body) => ({
      headers: { "paddle-signature": `ts=${ts};h1=${hex(await sha256(secret, `${ts}:${body}`))}` },
    }),
  },
  // linear.app/developers/webhooks: hex HMAC of the body; webhookTimestamp (ms) in the body.
  linear: {
    secret: "lin_wh",
    wrong: "lin_x",
    body: `{"action":"create","webhookTimestamp":${NOW * 1000}}`,
    stamped: true,
    sign: bodyMac("linear-signature", "", hex),
  },
  // developers.intercom.com "Webhooks": X-Hub-Signature: sha1=<hex HMAC-SHA1 of the body>.
  intercom: {
    secret: "ic",
    wrong: "ix",
    body: JSON_BODY,
    sign: bodyMac("x-hub-signature", "sha1=", hex, "SHA-1"),
  },
  // developer.squareup.com "Validate notifications": base64 HMAC-SHA256 of URL + body.
  square: {
    secret: "sq",
    wrong: "sx",
    body: JSON_BODY,
    sign: async (secret, body) => ({
      url: "https://edge.test/w/square",
      headers: {
        "x-square-hmacsha256-signature": b64(
          await sha256(secret, `https://edge.test/w/square${body}`),
        ),
      },
    }),
  },
  // developers.hubspot.com "Validating requests" (v3): base64 HMAC of method + decoded URL + body + timestamp (ms).
  hubspot: {
    secret: "hs-client-secret",
    wrong: "hs-other",
    body: JSON_BODY,
    stamped: true,
    sign: async (secret, body) => ({
      method: "POST",
      url: "https://edge.test/w/hub?email=a%40b.test",
      headers: {
        "x-hubspot-signature-v3": b64(
          await sha256(secret, `POSThttps://edge.test/w/hub?email=a@b.test${body}${NOW * 1000}`),
        ),
        "x-hubspot-request-timestamp": String(NOW * 1000),
      },
    }),
  },
  // typeform.com/developers "Secure your webhooks": Typeform-Signature: sha256=<base64>.
  typeform: {
    secret: "tf",
    wrong: "tx",
    body: JSON_BODY,
    sign: bodyMac("typeform-signature", "sha256=", b64),
  },
  // developer.calendly.com "Webhook signatures": t=…,v1=<hex HMAC of t.body>.
  calendly: {
    secret: "cal",
    wrong: "cax",
    body: JSON_BODY,
    stamped: true,
    sign: async (secret, body) => ({
      headers: {
        "calendly-webhook-signature": `t=${ts},v1=${hex(await sha256(secret, `${ts}.${body}`))}`,
      },
    }),
  },
  // docs.mux.com "Verify webhook signatures": Mux-Signature: t=…,v1=<hex HMAC of t.body>.
  mux: {
    secret: "mux",
    wrong: "mx",
    body: JSON_BODY,
    stamped: true,
    sign: async (secret, body) => ({
      headers: { "mux-signature": `t=${ts},v1=${hex(await sha256(secret, `${ts}.${body}`))}` },
    }),
  },
  // vercel.com/docs "Securing webhooks": hex HMAC-SHA1 of the body in x-vercel-signature.
  vercel: {
    secret: "vc",
    wrong: "vx",
    body: JSON_BODY,
    sign: bodyMac("x-vercel-signature", "", hex, "SHA-1"),
  },
  // developer.pagerduty.com "Verifying signatures": v1=<hex>, several while secrets rotate.
  pagerduty: {
    secret: "pd",
    wrong: "px",
    body: JSON_BODY,
    sign: async (secret, body) => ({
      headers: {
        "x-pagerduty-signature": `v1=${hex(await sha256("old", body))},v1=${hex(await sha256(secret, body))}`,
      },
    }),
  },
  // developer.zendesk.com "Verifying webhook authenticity": base64 HMAC of timestamp + body.
  zendesk: {
    secret: "zd",
    wrong: "zx",
    body: JSON_BODY,
    stamped: true,
    sign: async (secret, body) => {
      const iso = new Date(NOW * 1000).toISOString();
      return {
        headers: {
          "x-zendesk-webhook-signature": b64(await sha256(secret, iso + body)),
          "x-zendesk-webhook-signature-timestamp": iso,
        },
      };
    },
  },
  // docs.sentry.io "Webhooks": hex HMAC-SHA256 of the body in Sentry-Hook-Signature.
  sentry: {
    secret: "se",
    wrong: "sx",
    body: JSON_BODY,
    sign: bodyMac("sentry-hook-signature", "", hex),
  },
  // developer.atlassian.com "Webhooks" (secret): X-Hub-Signature: sha256=<hex>.
  jira: {
    secret: "ji",
    wrong: "jx",
    body: JSON_BODY,
    sign: bodyMac("x-hub-signature", "sha256=", hex),
  },
  // woocommerce.com "Webhooks": base64 HMAC-SHA256 of the body in X-WC-Webhook-Signature.
  woocommerce: {
    secret: "wc",
    wrong: "wx",
    body: JSON_BODY,
    sign: bodyMac("x-wc-webhook-signature", "", b64),
  },
  // docs.lemonsqueezy.com "Signing requests": hex HMAC-SHA256 of the body in X-Signature.
  lemonsqueezy: {
    secret: "ls",
    wrong: "lx",
    body: JSON_BODY,
    sign: bodyMac("x-signature", "", hex),
  },
  // developers.docusign.com "HMAC security": base64 HMAC-SHA256 of the body, one header per key.
  docusign: {
    secret: "ds",
    wrong: "dx",
    body: JSON_BODY,
    sign: async (secret, body) => ({
      headers: { "x-docusign-signature-1": b64(await sha256(secret, body)) },
    }),
  },
  clerk: { secret: WHSEC, wrong: WHSEC_2, body: JSON_BODY, stamped: true, sign: svix("svix-") },
  resend: { secret: WHSEC, wrong: WHSEC_2, body: JSON_BODY, stamped: true, sign: svix("svix-") },
};

const settings = (preset: string, extra: Partial<WebhookVerify> = {}): WebhookVerify =>
  ({ preset, secret: "{{secrets.S}}", toleranceSeconds: 300, ...extra }) as WebhookVerify;

async function verdict(preset: string, one: Case, secret: string, body: string, nowS: number) {
  const signed = await one.sign(one.secret, one.body);
  const request = {
    url: signed.url ?? "https://edge.test/w",
    method: signed.method ?? "POST",
    headers: signed.headers,
    body: encoder.encode(body),
  };
  return checkSignature(settings(preset, one.settings), secret, request, nowS * 1000);
}

describe("every provider preset", () => {
  it("the table has 30 and more presets with the handshake ones, each new one with a case here", () => {
    const old = [
      "github",
      "stripe",
      "slack",
      "shopify",
      "twilio",
      "standard-webhooks",
      "hmac-sha256",
    ];
    // The handshake presets are tested with their handshakes (test/workflows/handshakes*.test.ts).
    const handshakes = ["meta", "zoom", "microsoft-graph", "dropbox", "x", "asana"];
    const others = SIGNATURE_PRESETS.filter((name) => !handshakes.includes(name));
    expect(others.filter((name) => !old.includes(name)).sort()).toEqual(Object.keys(CASES).sort());
    expect(others.length + handshakes.length).toBeGreaterThanOrEqual(30);
  });

  it.each(Object.entries(CASES))(
    "%s: signed passes; tampered, wrong secret, stale refused",
    async (preset, one) => {
      const now = one.now ?? NOW;
      expect(await verdict(preset, one, one.secret, one.body, now)).toBeNull();
      expect(await verdict(preset, one, one.wrong, one.body, now)).toBe("bad_signature");
      if (one.tamper !== null) {
        const tampered = (one.tamper ?? ((body: string) => `${body} `))(one.body);
        expect(tampered).not.toBe(one.body);
        expect(await verdict(preset, one, one.secret, tampered, now)).toBe("bad_signature");
      }
      if (one.stamped) {
        expect(await verdict(preset, one, one.secret, one.body, now + 301)).toBe("stale_timestamp");
        expect(await verdict(preset, one, one.secret, one.body, now - 301)).toBe("stale_timestamp");
      }
      const unsigned = { url: "https://edge.test/w", headers: {}, body: encoder.encode("{}") };
      expect(
        await checkSignature(settings(preset, one.settings), one.secret, unsigned, now * 1000),
      ).toBe("missing_header");
      expect(
        await checkSignature(settings(preset, one.settings), undefined, unsigned, now * 1000),
      ).toBe("no_secret");
    },
  );
});

describe("verifyCall with a rotating secret (docs/webhooks.md#rotation)", () => {
  const rotating = settings("bitbucket", { secret: ["{{secrets.NEW}}", "{{secrets.OLD}}"] });
  const signedWith = async (secret: string) => ({
    url: "https://edge.test/w",
    headers: (await bodyMac("x-hub-signature", "sha256=", hex)(secret, JSON_BODY)).headers,
    body: encoder.encode(JSON_BODY),
  });

  it("names the secret that verified; refused, the first secret's reason unless it is missing", async () => {
    const both = { values: { NEW: "new-key", OLD: "old-key" } };
    const old = await signedWith("old-key");
    // With the signature that verified, as the header writes it: the delivery's dedupe key.
    expect(await verifyCall(rotating, both, old)).toEqual({
      refusal: null,
      verifiedWith: "OLD",
      signature: old.headers["x-hub-signature"],
    });
    expect(await verifyCall(rotating, both, await signedWith("new-key"))).toMatchObject({
      refusal: null,
      verifiedWith: "NEW",
    });
    expect(await verifyCall(rotating, both, await signedWith("guess"))).toEqual({
      refusal: "bad_signature",
    });
    const onlyOld = { values: { OLD: "old-key" } };
    expect(await verifyCall(rotating, onlyOld, await signedWith("guess"))).toEqual({
      refusal: "bad_signature",
    });
    expect(await verifyCall(rotating, onlyOld, await signedWith("old-key"))).toMatchObject({
      refusal: null,
      verifiedWith: "OLD",
    });
    expect(await verifyCall(rotating, { values: {} }, await signedWith("old-key"))).toEqual({
      refusal: "no_secret",
    });
  });
});
