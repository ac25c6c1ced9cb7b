/**
 * What the presets' rows (presets.ts) are written with: the parts of a signed message and the
 * schemes several senders share (docs/webhooks.md#presets).
 */
import type { Part, Row, SignatureSource } from "./preset-types";

export type { Row } from "./preset-types";

/** The raw body's bytes, the URL as called, the HTTP method, the signed timestamp as sent. */
export const BODY: Part = { from: "body" };
export const URL_: Part = { from: "url" };
export const METHOD: Part = { from: "method" };
export const TS: Part = { from: "timestamp" };
const header = (name: string): Part => ({ header: name });
export const field = (path: string): Part => ({ field: path });
/** A header of `name=value` pairs separated by `split`; the signatures are those named `tag`. */
export const pairs = (name: string, split: string, tag: string): SignatureSource => ({
  header: name,
  split,
  tag,
});

/** Standard Webhooks (Svix) under a header prefix: `<p>id`, `<p>timestamp`, `<p>signature`. */
export const standard = (prefix: string, about: string, dedupe = `headers.${prefix}id`): Row => ({
  about,
  algorithm: "hmac-sha256",
  secret: "whsec",
  signature: pairs(`${prefix}signature`, " ", "v1,"),
  encoding: "base64",
  timestamp: { header: `${prefix}timestamp`, unit: "s" },
  signed: [header(`${prefix}id`), ".", TS, ".", BODY],
  dedupe,
});

/** A body HMAC into one header, as `prefix` + hex or base64: the most common scheme. */
export const bodyMac = (
  about: string,
  algorithm: "hmac-sha256" | "hmac-sha1",
  name: string,
  encoding: "hex" | "base64",
  tag: string,
  dedupe?: string,
): Row => ({
  about,
  algorithm,
  signature: { header: name, tag },
  encoding,
  signed: [BODY],
  ...(dedupe ? { dedupe } : {}),
});
