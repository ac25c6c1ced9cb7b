/**
 * Senders' signatures on webhook calls (docs/webhooks.md#signatures): HMAC over the raw body bytes,
 * compared in constant time; a signed timestamp further than `toleranceSeconds` from now refuses.
 */
import { base64ToBytes, bytesToBase64, bytesToHex, constantTimeEqual } from "../../platform/crypto";
import type { WebhookVerify } from "../nodes/types";
import { SECRET_TEMPLATE } from "../nodes/webhook-checks";
import { HANDSHAKE_CHECKS, handshakeSignatureOf } from "./handshake-presets";

/** Why a call's signature was refused; logged, never answered (docs/webhooks.md#signatures). */
export type SignatureRefusal = "no_secret" | "missing_header" | "bad_signature" | "stale_timestamp";

/** What the check reads of a call. */
export type SignedRequest = {
  /** The full URL as the sender called it (Twilio signs it). */
  url: string;
  /** Header names in lowercase. */
  headers: Record<string, string>;
  /** The body's bytes as received. */
  body: Uint8Array;
};

const encoder = new TextEncoder();

/** An HMAC signer for `key`, imported once for the several messages a check may sign. */
async function hmacKey(hash: "SHA-256" | "SHA-1", key: Uint8Array) {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash }, false, [
    "sign",
  ]);
  return async (parts: (string | Uint8Array)[]) => {
    const data = concat(
      parts.map((part) => (typeof part === "string" ? encoder.encode(part) : part)),
    );
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, data));
  };
}

async function hmac(hash: "SHA-256" | "SHA-1", key: Uint8Array, parts: (string | Uint8Array)[]) {
  return (await hmacKey(hash, key))(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

const hex = bytesToHex;
const base64 = bytesToBase64;

function decodeBase64(text: string): Uint8Array | null {
  try {
    return base64ToBytes(text);
  } catch {
    return null;
  }
}

/** True when any of `given` is `expected` (each compared in constant time). */
function anyEqual(expected: string, given: readonly string[]): boolean {
  let found = false;
  for (const candidate of given) found = constantTimeEqual(expected, candidate) || found;
  return found;
}

function fresh(timestamp: string | undefined, toleranceSeconds: number, nowMs: number): boolean {
  const seconds = Number(timestamp);
  return Number.isInteger(seconds) && Math.abs(nowMs / 1000 - seconds) <= toleranceSeconds;
}

/** A Twilio form's fields as `twilio`'s getExpectedTwilioSignature signs them: sorted, deduplicated. */
function twilioFields(params: URLSearchParams): string {
  const fields = [...params];
  fields.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return fields
    .filter(
      ([name, value], i) => i === 0 || fields[i - 1]?.[0] !== name || fields[i - 1]?.[1] !== value,
    )
    .map(([name, value]) => name + value)
    .join("");
}

const STANDARD_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * The URLs Twilio may have signed for a call to `url`: as received, with the runtime's `'` → `%27`
 * undone, and each with the standard port the runtime drops (as Twilio's validateRequest accepts).
 */
function twilioUrls(url: string): string[] {
  const query = url.indexOf("?");
  const urls = [url];
  if (query !== -1 && url.includes("%27", query)) {
    urls.push(url.slice(0, query) + url.slice(query).replaceAll("%27", "'"));
  }
  const { protocol, host, port } = new URL(url);
  const origin = `${protocol}//${host}`;
  const standard = STANDARD_PORTS[protocol];
  if (port !== "" || !standard || !url.startsWith(origin)) return urls;
  return [...urls, ...urls.map((each) => `${origin}:${standard}${each.slice(origin.length)}`)];
}

type Check = (
  request: SignedRequest,
  secret: string,
  settings: WebhookVerify,
  nowMs: number,
) => Promise<SignatureRefusal | null>;

const key = (secret: string) => encoder.encode(secret);
const verdict = (ok: boolean): SignatureRefusal | null => (ok ? null : "bad_signature");

/** Each preset: what the sender sends and how it is checked (docs/webhooks.md#presets). */
const CHECKS: Record<WebhookVerify["preset"], Check> = {
  async github({ headers, body }, secret) {
    const given = headers["x-hub-signature-256"];
    if (!given) return "missing_header";
    const expected = `sha256=${hex(await hmac("SHA-256", key(secret), [body]))}`;
    return verdict(constantTimeEqual(expected, given.toLowerCase()));
  },
  async stripe({ headers, body }, secret, { toleranceSeconds }, nowMs) {
    const pairs = (headers["stripe-signature"] ?? "").split(",").map((part) => part.split("="));
    const timestamp = pairs.find(([name]) => name?.trim() === "t")?.[1];
    const signatures = pairs
      .filter(([name]) => name?.trim() === "v1")
      .map(([, value]) => value ?? "");
    if (!timestamp || signatures.length === 0) return "missing_header";
    if (!fresh(timestamp, toleranceSeconds, nowMs)) return "stale_timestamp";
    const expected = hex(await hmac("SHA-256", key(secret), [`${timestamp}.`, body]));
    return verdict(anyEqual(expected, signatures));
  },
  async slack({ headers, body }, secret, { toleranceSeconds }, nowMs) {
    const timestamp = headers["x-slack-request-timestamp"];
    const given = headers["x-slack-signature"];
    if (!timestamp || !given) return "missing_header";
    if (!fresh(timestamp, toleranceSeconds, nowMs)) return "stale_timestamp";
    const expected = `v0=${hex(await hmac("SHA-256", key(secret), [`v0:${timestamp}:`, body]))}`;
    return verdict(constantTimeEqual(expected, given));
  },
  async shopify({ headers, body }, secret) {
    const given = headers["x-shopify-hmac-sha256"];
    if (!given) return "missing_header";
    return verdict(constantTimeEqual(base64(await hmac("SHA-256", key(secret), [body])), given));
  },
  async twilio({ url, headers, body }, secret) {
    const given = headers["x-twilio-signature"];
    if (!given) return "missing_header";
    // A form body's fields are signed after the URL, sorted by name; a JSON body is signed by
    // the URL's bodySHA256 parameter instead, which must then be the body's digest.
    let fields = "";
    const claimed = new URL(url).searchParams.get("bodySHA256");
    if ((headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      fields = twilioFields(new URLSearchParams(new TextDecoder().decode(body)));
    } else if (claimed !== null || body.byteLength > 0) {
      const digest = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", body)));
      if (!constantTimeEqual(digest, (claimed ?? "").toLowerCase())) return "bad_signature";
    }
    const signer = await hmacKey("SHA-1", key(secret));
    let found = false;
    for (const candidate of twilioUrls(url)) {
      const expected = base64(await signer([candidate + fields]));
      found = constantTimeEqual(expected, given) || found;
    }
    return verdict(found);
  },
  async "standard-webhooks"({ headers, body }, secret, { toleranceSeconds }, nowMs) {
    const id = headers["webhook-id"];
    const timestamp = headers["webhook-timestamp"];
    const given = headers["webhook-signature"];
    if (!id || !timestamp || !given) return "missing_header";
    if (!fresh(timestamp, toleranceSeconds, nowMs)) return "stale_timestamp";
    const secretBytes = decodeBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
    if (!secretBytes || secretBytes.byteLength === 0) return "no_secret";
    const expected = base64(await hmac("SHA-256", secretBytes, [`${id}.${timestamp}.`, body]));
    const signatures = given
      .split(" ")
      .filter((entry) => entry.startsWith("v1,"))
      .map((entry) => entry.slice(3));
    return verdict(anyEqual(expected, signatures));
  },
  async "hmac-sha256"({ headers, body }, secret, settings) {
    const name = settings.header;
    const given = name && Object.hasOwn(headers, name) ? headers[name] : undefined;
    const prefix = settings.prefix ?? "";
    if (!given?.startsWith(prefix)) return "missing_header";
    const mac = await hmac("SHA-256", key(secret), [body]);
    const value = given.slice(prefix.length);
    return settings.encoding === "base64"
      ? verdict(constantTimeEqual(base64(mac), value))
      : verdict(constantTimeEqual(hex(mac), value.toLowerCase()));
  },
  ...HANDSHAKE_CHECKS,
};

/**
 * Checks a call's signature.
 * @param secret the signing secret's value; undefined when the workspace has no such secret
 * @param nowMs the time timestamps are compared with (epoch ms)
 * @returns null when it verifies, else why not (fail closed: no secret refuses every call)
 */
export async function checkSignature(
  settings: WebhookVerify,
  secret: string | undefined,
  request: SignedRequest,
  nowMs = Date.now(),
): Promise<SignatureRefusal | null> {
  if (!secret) return "no_secret";
  return CHECKS[settings.preset](request, secret, settings, nowMs);
}

/**
 * A verified call's signature, normalized: the delivery key of presets that sign no timestamp
 * (docs/webhooks.md#deduplication); null for the others.
 */
export function signatureOf(
  settings: WebhookVerify,
  headers: Record<string, string>,
): string | null {
  switch (settings.preset) {
    case "github":
      return headers["x-hub-signature-256"]?.toLowerCase() ?? null;
    case "shopify":
      return headers["x-shopify-hmac-sha256"] ?? null;
    case "twilio":
      return headers["x-twilio-signature"] ?? null;
    case "hmac-sha256": {
      const name = settings.header;
      const given = name && Object.hasOwn(headers, name) ? headers[name] : undefined;
      const value = given?.slice((settings.prefix ?? "").length);
      return settings.encoding === "base64" ? (value ?? null) : (value?.toLowerCase() ?? null);
    }
    default:
      return handshakeSignatureOf(settings.preset, headers);
  }
}

/** Checks a call against a node's `verify`, its secret named by the `{{secrets.NAME}}` template. */
export function verifyCall(
  verify: WebhookVerify,
  secretValues: { values: Record<string, string> },
  request: SignedRequest,
  nowMs = Date.now(),
): Promise<SignatureRefusal | null> {
  const name = SECRET_TEMPLATE.exec(verify.secret ?? "")?.[1];
  return checkSignature(verify, name ? secretValues.values[name] : undefined, request, nowMs);
}
