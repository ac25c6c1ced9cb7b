/**
 * The rows of the presets whose senders shake hands first (docs/webhooks.md#handshakes): how
 * their deliveries are signed, in the table's terms (preset-types.ts); x and microsoft-graph
 * have checks of their own (handshake-presets.ts). The handshakes themselves: handshakes.ts.
 */
import { BODY, bodyMac, type Row, TS } from "./preset-rows";

/** The handshake presets' rows, spread into PRESETS. */
export const HANDSHAKE_ROWS = {
  meta: bodyMac(
    "Meta (WhatsApp, Messenger, Instagram): HMAC-SHA256 of the body with the app secret, `X-Hub-Signature-256: sha256=<hex>`; answers the `hub.challenge` subscription handshake",
    "hmac-sha256",
    "x-hub-signature-256",
    "hex",
    "sha256=",
  ),
  zoom: {
    about:
      "Zoom: `x-zm-signature: v0=<hex>`, HMAC-SHA256 of `v0:<x-zm-request-timestamp>:body`; answers `endpoint.url_validation`",
    algorithm: "hmac-sha256",
    signature: { header: "x-zm-signature", tag: "v0=" },
    encoding: "hex",
    timestamp: { header: "x-zm-request-timestamp", unit: "s" },
    signed: ["v0:", TS, ":", BODY],
  },
  "microsoft-graph": {
    about:
      "Microsoft Graph change notifications: each `value[].clientState` equals the secret; answers `validationToken`",
    check: "own",
  },
  dropbox: bodyMac(
    "Dropbox: HMAC-SHA256 of the body with the app secret, hex in `X-Dropbox-Signature`; answers the `challenge` handshake",
    "hmac-sha256",
    "x-dropbox-signature",
    "hex",
    "",
  ),
  x: {
    about:
      "X (Twitter): `x-twitter-webhooks-signature: sha256=<base64>`, HMAC-SHA256 of the body with the consumer secret; answers the `crc_token` check",
    check: "own",
    signatureHeader: "x-twitter-webhooks-signature",
  },
  asana: bodyMac(
    "Asana: HMAC-SHA256 of the body, hex in `X-Hook-Signature`, with the X-Hook-Secret its handshake brought (kept sealed; no secret to name)",
    "hmac-sha256",
    "x-hook-signature",
    "hex",
    "",
  ),
} satisfies Record<string, Row>;
