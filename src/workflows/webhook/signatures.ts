/**
 * Senders' signatures on webhook calls (docs/webhooks.md#signatures): each preset's row
 * (presets.ts) says where the signature is and what is signed; HMACs are compared in constant
 * time, Ed25519 and ECDSA signatures verified under the sender's public key, and a signed
 * timestamp further than `toleranceSeconds` from now refuses.
 */
import { bytesToBase64, bytesToHex, constantTimeEqual } from "../../platform/crypto";
import type { WebhookVerify } from "../nodes/types";
import { SECRET_TEMPLATE } from "../nodes/webhook-checks";
import { HANDSHAKE_CHECKS } from "./handshake-presets";
import { anyEqual, concat, decodeBase64, hmacKey, utf8 } from "./macs";
import type {
  Check,
  Part,
  Row,
  SignatureRefusal,
  SignedRequest,
  TableRow,
  TimestampSource,
  VerifySettings,
} from "./preset-types";
import { signsNoTimestamp } from "./preset-types";
import { PRESETS } from "./presets";
import { verifiesPublicKey } from "./public-keys";
import { twilioCheck } from "./twilio";

export type { SignatureRefusal, SignedRequest } from "./preset-types";

const encoder = new TextEncoder();

/** The call as a row reads it: its JSON body parsed once, when a row reads a field of it. */
type Reading = SignedRequest & { json: () => unknown };

function reading(request: SignedRequest): Reading {
  let parsed: { value: unknown } | undefined;
  return {
    ...request,
    json() {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(new TextDecoder().decode(request.body)) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}

/** A field of the JSON body by dotted path, as text; undefined when absent or not a scalar. */
function fieldOf(call: Reading, path: string): string | undefined {
  let at: unknown = call.json();
  for (const name of path.split(".")) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, name)) return undefined;
    at = (at as Record<string, unknown>)[name];
  }
  return typeof at === "string" || typeof at === "number" ? String(at) : undefined;
}

/** The header's value, or the first present of several. */
function headerOf(call: Reading, names: string | string[]): string | undefined {
  for (const name of typeof names === "string" ? [names] : names) {
    if (Object.hasOwn(call.headers, name)) return call.headers[name];
  }
  return undefined;
}

/** The header's entries (split by `split`), kept when they start with `tag`, `tag` cut off. */
function tagged(value: string, tag: string, split?: string): string[] {
  const entries = split === undefined ? [value] : value.split(split).map((entry) => entry.trim());
  return entries.filter((entry) => entry.startsWith(tag)).map((entry) => entry.slice(tag.length));
}

/** The signature source of a row, the generic presets' own from the node's settings. */
function sourceOf(row: TableRow, settings: VerifySettings) {
  if (row.signature !== "setting") return row.signature;
  return { header: settings.header ?? "", tag: settings.prefix ?? "" };
}

const encodingOf = (row: TableRow, settings: VerifySettings) =>
  row.encoding === "setting" ? (settings.encoding ?? "hex") : row.encoding;

/** The signatures the call carries, or null when it carries none. */
function signaturesOf(call: Reading, row: TableRow, settings: VerifySettings): string[] | null {
  const source = sourceOf(row, settings);
  if ("field" in source) {
    const value = fieldOf(call, source.field);
    return value ? [value] : null;
  }
  // Every header named that is present (DocuSign sends one per key while its keys rotate).
  const names = typeof source.header === "string" ? [source.header] : source.header;
  const values = names.flatMap((name) =>
    Object.hasOwn(call.headers, name) ? [call.headers[name] as string] : [],
  );
  // Hex is read in either case, its tag too (`SHA256=…` verifies as GitHub's `sha256=…`).
  const hex = encodingOf(row, settings) === "hex";
  const found = values.flatMap((value) =>
    hex
      ? tagged(value.toLowerCase(), source.tag.toLowerCase(), source.split)
      : tagged(value, source.tag, source.split),
  );
  return found.length > 0 ? found : null;
}

function timestampOf(call: Reading, row: TableRow, source: TimestampSource): string | undefined {
  if ("field" in source) return fieldOf(call, source.field);
  if ("header" in source) return headerOf(call, source.header);
  const signature = row.signature;
  if (signature === "setting" || "field" in signature) return undefined;
  const value = headerOf(call, signature.header);
  return value === undefined ? undefined : tagged(value, source.tag, signature.split)[0];
}

/** Seconds since the epoch of a timestamp as sent, or NaN when it is none. */
function secondsOf(text: string, unit: TimestampSource["unit"]): number {
  if (unit === "iso") return /^\d{4}-\d\d-\d\dT/.test(text) ? Date.parse(text) / 1000 : Number.NaN;
  if (!/^\d{1,16}$/.test(text)) return Number.NaN;
  return unit === "ms" ? Number(text) / 1000 : Number(text);
}

/** HubSpot's v3 URL: these escapes undone (developers.hubspot.com, "Validate requests"). */
const HUBSPOT_ESCAPES = /%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi;
const unescapeUrl = (url: string) =>
  url.replace(HUBSPOT_ESCAPES, (escaped) => decodeURIComponent(escaped));

/** The signed message's parts, or null when one of them is missing. */
function messageOf(call: Reading, parts: Part[], timestamp: string | undefined) {
  const out: (string | Uint8Array)[] = [];
  for (const part of parts) {
    let value: string | Uint8Array | undefined;
    if (typeof part === "string") value = part;
    else if ("header" in part) value = headerOf(call, part.header);
    else if ("field" in part) value = fieldOf(call, part.field);
    else if (part.from === "body") value = call.body;
    else if (part.from === "method") value = call.method ?? "POST";
    else if (part.from === "timestamp") value = timestamp;
    else value = "decoded" in part && part.decoded ? unescapeUrl(call.url) : call.url;
    if (value === undefined) return null;
    out.push(value);
  }
  return out;
}

/** The HMAC key of a secret: its UTF-8 bytes, or base64 after `whsec_` (Standard Webhooks). */
function macKey(row: TableRow, secret: string): Uint8Array<ArrayBuffer> | null {
  if (row.secret !== "whsec") return utf8(secret);
  const bytes = decodeBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  return bytes && bytes.byteLength > 0 ? bytes : null;
}

/** Where a check puts the HMAC signature that verified, as the dedupe key names it. */
export type Verified = { signature?: string };

/** Checks a call against a row: null when it verifies, else why not. */
async function checkRow(
  row: TableRow,
  call: Reading,
  secret: string,
  settings: VerifySettings,
  nowMs: number,
  out: Verified,
): Promise<SignatureRefusal | null> {
  const given = signaturesOf(call, row, settings);
  if (!given) return "missing_header";
  if (row.algorithm === "token")
    return constantTimeEqual(secret, given[0] ?? "") ? null : "bad_signature";
  if (row.algorithm === "basic") {
    const expected = bytesToBase64(encoder.encode(secret));
    return anyEqual(
      expected,
      given.map((each) => each.trim()),
    )
      ? null
      : "bad_signature";
  }
  let timestamp: string | undefined;
  if (row.timestamp) {
    timestamp = timestampOf(call, row, row.timestamp);
    if (timestamp === undefined) return "missing_header";
    const seconds = secondsOf(timestamp, row.timestamp.unit);
    const fresh = Math.abs(nowMs / 1000 - seconds) <= settings.toleranceSeconds;
    if (!fresh) return "stale_timestamp";
  }
  const parts = messageOf(call, row.signed, timestamp);
  if (!parts) return "missing_header";
  if (row.algorithm === "ed25519" || row.algorithm === "ecdsa-p256") {
    let found = false;
    for (const signature of given) {
      const verified = await verifiesPublicKey(row, secret, signature, concat(parts));
      if (verified === null) return "no_secret";
      found = verified || found;
    }
    return found ? null : "bad_signature";
  }
  const key = macKey(row, secret);
  if (!key) return "no_secret";
  const mac = await (await hmacKey(row.algorithm === "hmac-sha1" ? "SHA-1" : "SHA-256", key))(
    parts,
  );
  const hex = encodingOf(row, settings) !== "base64";
  const expected = hex ? bytesToHex(mac) : bytesToBase64(mac);
  if (!anyEqual(expected, given)) return "bad_signature";
  // The one that verified, whatever else the call carries (a replay may add entries or headers).
  // Named as the header writes it; the generic presets' without their prefix, as they always were.
  const source = sourceOf(row, settings);
  const tag = "tag" in source ? source.tag : "";
  const prefix = row.signature === "setting" ? "" : hex ? tag.toLowerCase() : tag;
  out.signature = prefix + expected;
  return null;
}

/** The checks of the rows that say `check: "own"`, by preset. */
const OWN_CHECKS: Partial<Record<WebhookVerify["preset"], Check>> = {
  twilio: twilioCheck,
  ...HANDSHAKE_CHECKS,
};

/**
 * Checks a call's signature against its preset's row (docs/webhooks.md#presets).
 * @param secret the signing secret's value; undefined when the workspace has no such secret
 * @param nowMs the time timestamps are compared with (epoch ms)
 * @returns null when it verifies, else why not (fail closed: no secret refuses every call)
 */
export async function checkSignature(
  settings: WebhookVerify,
  secret: string | undefined,
  request: SignedRequest,
  nowMs = Date.now(),
  out: Verified = {},
): Promise<SignatureRefusal | null> {
  if (!secret) return "no_secret";
  const row: Row = PRESETS[settings.preset];
  if ("check" in row) {
    const own = OWN_CHECKS[settings.preset];
    return own ? own(request, secret, settings, nowMs) : "no_secret";
  }
  return checkRow(row, reading(request), secret, settings, nowMs, out);
}

/**
 * A verified call's signature, normalized: the delivery key of presets that sign no timestamp
 * (docs/webhooks.md#deduplication); null for the others. A table row's is the one its check
 * found verifying (`verified`); an own check's, its one signature header.
 */
export function signatureOf(
  settings: WebhookVerify,
  headers: Record<string, string>,
  verified?: string,
): string | null {
  const row: Row = PRESETS[settings.preset];
  if (!signsNoTimestamp(row)) return null;
  if ("check" in row) return row.signatureHeader ? (headers[row.signatureHeader] ?? null) : null;
  return verified ?? null;
}

/** The secrets a node's `verify.secret` names: one template, or two while a secret rotates. */
export const secretNames = (secret: string | readonly string[]): string[] =>
  (typeof secret === "string" ? [secret] : [...secret]).flatMap(
    (template) => SECRET_TEMPLATE.exec(template)?.[1] ?? [],
  );

/** A call checked against a node's `verify`: why it was refused, or the secret that verified it. */
export type VerifyResult =
  | { refusal: SignatureRefusal; verifiedWith?: undefined; signature?: undefined }
  | { refusal: null; verifiedWith: string; signature?: string };

/**
 * Checks a call against a node's `verify`, with each secret its `{{secrets.NAME}}` templates name
 * in turn (docs/webhooks.md#rotation): the first that verifies is the one the log names. Refused,
 * the first secret's reason, unless the workspace lacks it.
 */
export async function verifyCall(
  verify: WebhookVerify,
  secretValues: { values: Record<string, string> },
  request: SignedRequest,
  nowMs = Date.now(),
): Promise<VerifyResult> {
  let refusal: SignatureRefusal | null = null;
  for (const name of secretNames(verify.secret ?? [])) {
    const value = Object.hasOwn(secretValues.values, name) ? secretValues.values[name] : undefined;
    const out: Verified = {};
    const reason = await checkSignature(verify, value, request, nowMs, out);
    if (reason === null) return { refusal: null, verifiedWith: name, signature: out.signature };
    if (refusal === null || refusal === "no_secret") refusal = reason;
  }
  return { refusal: refusal ?? "no_secret" };
}
