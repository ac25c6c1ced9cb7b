/**
 * The shape of a signature preset's row (docs/webhooks.md#presets): what `presets.ts` says of each
 * sender and `signatures.ts` checks.
 */

/**
 * What a check reads of a node's `verify` (the node's WebhookVerify; spelled out here so the
 * table's type does not depend on the schema built from it).
 */
export type VerifySettings = {
  preset: string;
  toleranceSeconds: number;
  /** The generic hmac presets' own header, encoding and prefix. */
  header?: string;
  encoding?: "hex" | "base64";
  prefix?: string;
};

/** Why a call's signature was refused; logged, never answered (docs/webhooks.md#signatures). */
export type SignatureRefusal = "no_secret" | "missing_header" | "bad_signature" | "stale_timestamp";

/** What the check reads of a call. */
export type SignedRequest = {
  /** The full URL as the sender called it (Twilio, Square and HubSpot sign it). */
  url: string;
  /** The HTTP method (HubSpot signs it); POST when left out. */
  method?: string;
  /** Header names in lowercase. */
  headers: Record<string, string>;
  /** The body's bytes as received. */
  body: Uint8Array;
};

/** A check a row cannot say: the call, the secret's value, the node's `verify`, now (epoch ms). */
export type Check = (
  request: SignedRequest,
  secret: string,
  settings: VerifySettings,
  nowMs: number,
) => Promise<SignatureRefusal | null>;

/**
 * One piece of the signed message, in order: literal text, the raw body, the URL as called
 * (`decoded`: with HubSpot's list of escapes undone), the method, the timestamp as sent, a
 * header's value, or a field of the JSON body (a dotted path).
 */
export type Part =
  | string
  | { from: "body" | "method" | "timestamp" }
  | { from: "url"; decoded?: boolean }
  | { header: string }
  | { field: string };

/**
 * Where the signature is: a header (or the first of several that is present) whose entries,
 * split by `split` when given, are signatures when they start with `tag` (which is cut off);
 * or a field of the JSON body.
 */
export type SignatureSource =
  | { header: string | string[]; tag: string; split?: string }
  | { field: string };

/** Where the signed timestamp is, and its unit (`iso`: an ISO 8601 date). */
export type TimestampSource = (
  | { header: string }
  | { field: string }
  /** An entry of the signature header, such as Stripe's `t=`. */
  | { tag: string }
) & { unit: "s" | "ms" | "iso" };

/** A preset checked from its row alone. */
export type TableRow = {
  /** One line for the OpenAPI enum and the editor. */
  about: string;
  /**
   * HMAC of the signed message; Ed25519 or ECDSA P-256 (SHA-256) signatures of it under a public
   * key; basic auth (`user:password`) or a token compared with the secret as it is.
   */
  algorithm: "hmac-sha256" | "hmac-sha1" | "ed25519" | "ecdsa-p256" | "basic" | "token";
  /**
   * How the secret's text becomes the key: its UTF-8 bytes (default); `whsec`, base64 after an
   * optional `whsec_`; `hex`, a raw public key; `spki`, a base64 (or PEM) DER public key.
   */
  secret?: "text" | "whsec" | "hex" | "spki";
  /** `setting`: the node's own `header` and `prefix` (the generic hmac presets). */
  signature: SignatureSource | "setting";
  /** How the signature is written; `setting`: the node's `encoding`. Not for basic and token. */
  encoding?: "hex" | "base64" | "setting";
  /** The signed timestamp, refused further than the node's `toleranceSeconds` from now. */
  timestamp?: TimestampSource;
  /** The signed message, in order. */
  signed: Part[];
  /** The sender's delivery id, a path into the node's output, deduped on by default. */
  dedupe?: string;
};

/** A preset with a check of its own (twilio, and senders that need a handshake). */
export type CustomRow = {
  about: string;
  /** Its check is signatures.ts's OWN_CHECKS entry of the same name. */
  check: "own";
  /** The header a check that signs no timestamp reads its signature from (dedupe names it). */
  signatureHeader?: string;
  dedupe?: string;
};

export type Row = TableRow | CustomRow;

/**
 * Whether a row's signature is a MAC of the body with no timestamp: a replay verifies as well as
 * the first call, so deduplication names the delivery by its signature (docs/webhooks.md#deduplication).
 * A token or basic auth is the same on every call, and names nothing.
 */
export function signsNoTimestamp(row: Row): boolean {
  if ("check" in row) return row.signatureHeader !== undefined;
  return row.algorithm.startsWith("hmac-") && !row.timestamp && !isField(row.signature);
}

const isField = (source: TableRow["signature"]): source is { field: string } =>
  typeof source === "object" && "field" in source;
