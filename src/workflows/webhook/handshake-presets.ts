/**
 * How the deliveries of the handshake presets are checked (docs/webhooks.md#presets): meta,
 * zoom, microsoft-graph, dropbox, x and asana. HMAC-SHA256 over the raw body bytes (zoom's over a
 * stamped message), or microsoft-graph's shared `clientState`; every comparison in constant time.
 */
import { bytesToBase64, bytesToHex, constantTimeEqual } from "../../platform/crypto";
import type { HandshakePreset } from "../nodes/handshake-verify";

/** What a check reads of a call (as signatures.ts's SignedRequest). */
type Delivery = { url: string; headers: Record<string, string>; body: Uint8Array };
/** Why a delivery was refused (as signatures.ts's SignatureRefusal). */
type Refusal = "no_secret" | "missing_header" | "bad_signature" | "stale_timestamp";
type DeliveryCheck = (
  request: Delivery,
  secret: string,
  settings: { toleranceSeconds: number },
  nowMs: number,
) => Promise<Refusal | null>;

const encoder = new TextEncoder();

/** HMAC-SHA256 of `parts` under `secret`'s UTF-8 bytes. */
export async function hmacSha256(
  secret: string,
  ...parts: (string | Uint8Array)[]
): Promise<Uint8Array> {
  const bytes = parts.map((part) => (typeof part === "string" ? encoder.encode(part) : part));
  const data = new Uint8Array(bytes.reduce((n, part) => n + part.byteLength, 0));
  let offset = 0;
  for (const part of bytes) {
    data.set(part, offset);
    offset += part.byteLength;
  }
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

const verdict = (ok: boolean): Refusal | null => (ok ? null : "bad_signature");

/** A header holding `prefix` + hex HMAC-SHA256 of the body (hex compared case-insensitively). */
function hexOfBody(header: string, prefix = ""): DeliveryCheck {
  return async ({ headers, body }, secret) => {
    const given = headers[header];
    if (!given) return "missing_header";
    const expected = `${prefix}${bytesToHex(await hmacSha256(secret, body))}`;
    return verdict(constantTimeEqual(expected, given.toLowerCase()));
  };
}

/** Each `value[].clientState` of a Graph notification body, or null when it has none. */
function clientStates(body: Uint8Array): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
  const value = (parsed as { value?: unknown } | null)?.value;
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((item) => {
    const state = (item as { clientState?: unknown } | null)?.clientState;
    return typeof state === "string" ? state : "";
  });
}

/** The delivery check of each handshake preset (the handshakes themselves: handshakes.ts). */
export const HANDSHAKE_CHECKS: Record<HandshakePreset, DeliveryCheck> = {
  // Meta signs the body with the app secret, as GitHub does.
  meta: hexOfBody("x-hub-signature-256", "sha256="),
  async zoom({ headers, body }, secret, { toleranceSeconds }, nowMs) {
    const timestamp = headers["x-zm-request-timestamp"];
    const given = headers["x-zm-signature"];
    if (!timestamp || !given) return "missing_header";
    const seconds = Number(timestamp);
    if (!Number.isInteger(seconds) || Math.abs(nowMs / 1000 - seconds) > toleranceSeconds) {
      return "stale_timestamp";
    }
    const mac = await hmacSha256(secret, `v0:${timestamp}:`, body);
    return verdict(constantTimeEqual(`v0=${bytesToHex(mac)}`, given.toLowerCase()));
  },
  // Graph signs nothing: the subscription's clientState comes back in every notification.
  async "microsoft-graph"({ body }, secret) {
    const states = clientStates(body);
    if (states === null) return "missing_header";
    let ok = true;
    for (const state of states) ok = constantTimeEqual(secret, state) && ok;
    return verdict(ok);
  },
  dropbox: hexOfBody("x-dropbox-signature"),
  async x({ headers, body }, secret) {
    const given = headers["x-twitter-webhooks-signature"];
    if (!given) return "missing_header";
    // X delivers JSON objects. A CRC answer is an HMAC of its token under the same secret, so a
    // body that could be a token (handshakes.ts admits no `{` in one) is never taken as signed.
    if (body[0] !== 0x7b) return "bad_signature";
    const expected = `sha256=${bytesToBase64(await hmacSha256(secret, body))}`;
    return verdict(constantTimeEqual(expected, given));
  },
  // The secret is the X-Hook-Secret kept from the handshake (hook-secrets.ts), not a workspace one.
  asana: hexOfBody("x-hook-signature"),
};

/** The signature header of each handshake preset that signs no timestamp (their dedupe key). */
const UNSTAMPED_SIGNATURES: Partial<Record<HandshakePreset, string>> = {
  meta: "x-hub-signature-256",
  dropbox: "x-dropbox-signature",
  x: "x-twitter-webhooks-signature",
  asana: "x-hook-signature",
};

/**
 * A verified delivery's signature, normalized, for the presets that sign no timestamp
 * (docs/webhooks.md#deduplication); null for the others.
 */
export function handshakeSignatureOf(
  preset: string,
  headers: Record<string, string>,
): string | null {
  const header = UNSTAMPED_SIGNATURES[preset as HandshakePreset];
  const given = header ? headers[header] : undefined;
  if (given === undefined) return null;
  return preset === "x" ? given : given.toLowerCase();
}
