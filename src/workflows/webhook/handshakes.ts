/**
 * Senders' handshakes, answered for the builder (docs/webhooks.md#handshakes): with the matching
 * `verify` preset, a call that is a handshake is answered here and starts nothing. Which calls are
 * handshakes (`handshakeOf`), and what each is answered (`answerHandshake`).
 */
import { bytesToBase64, bytesToHex, constantTimeEqual } from "../../platform/crypto";
import type { JsonValue } from "../../platform/json";
import type { WebhookVerify } from "../nodes/types";
import { SECRET_TEMPLATE } from "../nodes/webhook-checks";
import type { DirectOutcome, WebhookCall } from "../runner/contract";
import { hmacSha256 } from "./macs";

/** A handshake, as read from the call; `signed` ones are verified as deliveries are, first. */
export type Handshake = { signed: boolean } & (
  | { preset: "slack"; challenge: string }
  | { preset: "meta"; token: string; challenge: string }
  | { preset: "zoom"; plainToken: string }
  | { preset: "microsoft-graph"; validationToken: string }
  | { preset: "dropbox"; challenge: string }
  | { preset: "x"; crcToken: string }
  | { preset: "asana"; secret: string }
);

/** A handshake's answer, or its refusal (403 handshake_refused) and why, for the request log. */
export type HandshakeOutcome =
  | { outcome: Extract<DirectOutcome, { kind: "handshake" }>; reason?: undefined }
  | { outcome: Extract<DirectOutcome, { kind: "handshake_refused" }>; reason: string };

/**
 * An X CRC token as X sends them: it is answered with an HMAC under the consumer secret that signs
 * deliveries too, so a token that could be a delivery's body (JSON, with `{`) is never answered.
 */
const CRC_TOKEN = /^[A-Za-z0-9+/=_.~-]{1,512}$/;
/** Echoed text is the caller's: never sniffed as markup (Dropbox asks for it; all get it). */
const NOSNIFF = { "x-content-type-options": "nosniff" };

type Call = Pick<WebhookCall, "method" | "url" | "headers" | "input">;

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
const text = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : null;

/**
 * The handshake `call` is for the node's preset, or null when it is a delivery: slack's
 * `url_verification` and zoom's `endpoint.url_validation` bodies (signed); meta's
 * `GET ?hub.mode=subscribe`, dropbox's `GET ?challenge=`, x's `GET ?crc_token=`;
 * microsoft-graph's `?validationToken=` (any method) and asana's `X-Hook-Secret` header.
 */
export function handshakeOf(verify: WebhookVerify, call: Call): Handshake | null {
  const query = new URL(call.url).searchParams;
  const get = call.method === "GET";
  const body = call.input.ok ? call.input.output.body : undefined;
  switch (verify.preset) {
    case "slack": {
      const challenge = text(field(body, "challenge"));
      const is = field(body, "type") === "url_verification" && challenge !== null;
      return is ? { preset: "slack", challenge, signed: true } : null;
    }
    case "zoom": {
      const plainToken = text(field(field(body, "payload"), "plainToken"));
      const is = field(body, "event") === "endpoint.url_validation" && plainToken !== null;
      return is ? { preset: "zoom", plainToken, signed: true } : null;
    }
    case "meta": {
      const challenge = query.get("hub.challenge");
      if (!get || query.get("hub.mode") !== "subscribe" || challenge === null) return null;
      return {
        preset: "meta",
        token: query.get("hub.verify_token") ?? "",
        challenge,
        signed: false,
      };
    }
    case "microsoft-graph": {
      const validationToken = query.get("validationToken");
      return validationToken === null
        ? null
        : { preset: "microsoft-graph", validationToken, signed: false };
    }
    case "dropbox": {
      const challenge = query.get("challenge");
      return get && challenge !== null ? { preset: "dropbox", challenge, signed: false } : null;
    }
    case "x": {
      const crcToken = query.get("crc_token");
      return get && crcToken !== null ? { preset: "x", crcToken, signed: false } : null;
    }
    case "asana": {
      const secret = call.headers["x-hook-secret"];
      return secret ? { preset: "asana", secret, signed: false } : null;
    }
    default:
      return null;
  }
}

/** The value of the workspace secret a `{{secrets.NAME}}` template names, if it exists. */
export function secretNamed(
  template: string | readonly string[] | undefined,
  secrets: { values: Record<string, string> },
): string | undefined {
  // While a secret rotates the first named is the new one: a handshake is answered with it.
  const first = typeof template === "string" ? template : template?.[0];
  const name = SECRET_TEMPLATE.exec(first ?? "")?.[1];
  return name && Object.hasOwn(secrets.values, name) ? secrets.values[name] : undefined;
}

/** A 200 answer: text (`text/plain; charset=utf-8`), JSON, or none (`body` undefined). */
const answer = (
  contentType: "text" | "json",
  body: JsonValue | undefined,
  headers: Record<string, string> = {},
): HandshakeOutcome => ({
  outcome: { kind: "handshake", reply: { status: 200, contentType, headers, body } },
});
const refuse = (reason: string): HandshakeOutcome => ({
  outcome: { kind: "handshake_refused" },
  reason,
});

/**
 * The answer to a handshake (docs/webhooks.md#handshakes); a signed one must have been verified.
 * @param keep asana: keeps the hook secret, true once it is the kept one (docs/webhooks.md#asana)
 * @returns the answer, or its refusal with why: `no_secret` (the named secret does not exist),
 *   `bad_verify_token` (meta), `bad_token` (x: not a CRC token), `secret_kept` (asana: another
 *   hook secret is kept)
 */
export async function answerHandshake(
  handshake: Handshake,
  verify: WebhookVerify,
  secrets: { values: Record<string, string> },
  keep: (secret: string) => Promise<boolean>,
): Promise<HandshakeOutcome> {
  switch (handshake.preset) {
    case "slack":
      return answer("text", handshake.challenge, NOSNIFF);
    case "meta": {
      const token = secretNamed(verify.verifyToken, secrets);
      if (!token) return refuse("no_secret");
      if (!constantTimeEqual(token, handshake.token)) return refuse("bad_verify_token");
      return answer("text", handshake.challenge, NOSNIFF);
    }
    case "zoom": {
      const secret = secretNamed(verify.secret, secrets);
      if (!secret) return refuse("no_secret");
      const encryptedToken = bytesToHex(await hmacSha256(secret, handshake.plainToken));
      return answer("json", { plainToken: handshake.plainToken, encryptedToken });
    }
    case "microsoft-graph":
      return answer("text", handshake.validationToken, NOSNIFF);
    case "dropbox":
      return answer("text", handshake.challenge, NOSNIFF);
    case "x": {
      if (!CRC_TOKEN.test(handshake.crcToken)) return refuse("bad_token");
      const secret = secretNamed(verify.secret, secrets);
      if (!secret) return refuse("no_secret");
      const mac = bytesToBase64(await hmacSha256(secret, handshake.crcToken));
      return answer("json", { response_token: `sha256=${mac}` });
    }
    case "asana":
      if (!(await keep(handshake.secret))) return refuse("secret_kept");
      return answer("text", undefined, { "x-hook-secret": handshake.secret });
  }
}
