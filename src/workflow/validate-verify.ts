/**
 * The `verify` and `dedupe` settings of a webhook node (docs/webhooks.md#signatures,
 * docs/webhooks.md#deduplication): a preset, the workspace secret that holds the signing secret
 * and the preset's options; the key that identifies a delivery and how long it is remembered.
 * Every problem is reported.
 */
import { isPlainObject } from "./template";
import {
  HEADER_NAME,
  type ReportProblem,
  SIGNATURE_PRESETS,
  type SignaturePreset,
  type WebhookDedupe,
  type WebhookVerify,
} from "./types";

/** `{{secrets.NAME}}` and nothing else: the one secret the signature is checked with. */
export const SECRET_TEMPLATE = /^\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;
/** The fields of `verify`; the last three are for the hmac-sha256 preset only. */
export const VERIFY_FIELDS = [
  "preset",
  "secret",
  "toleranceSeconds",
  "header",
  "encoding",
  "prefix",
];
const HMAC_ONLY = ["header", "encoding", "prefix"];
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const MAX_TOLERANCE_SECONDS = 86_400;
/** How an hmac-sha256 signature is written; the first is the default. */
export const SIGNATURE_ENCODINGS = ["hex", "base64"] as const;
export const MAX_PREFIX_LENGTH = 64;

/**
 * Reads `verify`, reporting under `verify.<field>`.
 * @returns the setting with its defaults, or undefined where it is too broken to keep
 */
export function readVerify(raw: unknown, report: ReportProblem): WebhookVerify | undefined {
  if (!isPlainObject(raw)) {
    report("verify", "invalid_type", "verify must be an object.");
    return undefined;
  }
  for (const field of Object.keys(raw)) {
    if (!VERIFY_FIELDS.includes(field))
      report(`verify.${field}`, "unknown_field", `Unknown setting.`);
  }
  const preset = SIGNATURE_PRESETS.find((known) => known === raw.preset);
  if (!preset) {
    report("verify.preset", "invalid_option", `Use one of ${SIGNATURE_PRESETS.join(", ")}.`);
  }
  if (typeof raw.secret !== "string" || !SECRET_TEMPLATE.test(raw.secret)) {
    report("verify.secret", "invalid_secret", 'Name a workspace secret: "{{secrets.NAME}}".');
  }
  const tolerance = raw.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (
    typeof tolerance !== "number" ||
    !Number.isInteger(tolerance) ||
    tolerance < 1 ||
    tolerance > MAX_TOLERANCE_SECONDS
  ) {
    report(
      "verify.toleranceSeconds",
      "out_of_range",
      `toleranceSeconds must be an integer from 1 to ${MAX_TOLERANCE_SECONDS}.`,
    );
  }
  const options = readHmacOptions(raw, preset, report);
  if (!preset || typeof raw.secret !== "string") return undefined;
  return {
    preset,
    secret: raw.secret,
    toleranceSeconds: typeof tolerance === "number" ? tolerance : DEFAULT_TOLERANCE_SECONDS,
    ...options,
  };
}

function readHmacOptions(
  raw: Record<string, unknown>,
  preset: SignaturePreset | undefined,
  report: ReportProblem,
): Pick<WebhookVerify, "header" | "encoding" | "prefix"> {
  if (preset !== "hmac-sha256") {
    for (const field of HMAC_ONLY) {
      if (Object.hasOwn(raw, field)) {
        report(`verify.${field}`, "not_allowed", `${field} is for the hmac-sha256 preset only.`);
      }
    }
    return {};
  }
  const header = typeof raw.header === "string" ? raw.header.toLowerCase() : undefined;
  if (!header || !HEADER_NAME.test(header)) {
    report("verify.header", "required", "hmac-sha256 needs the header that holds the signature.");
  }
  const encoding = raw.encoding ?? "hex";
  if (encoding !== "hex" && encoding !== "base64") {
    report("verify.encoding", "invalid_option", "Use hex or base64.");
  }
  const prefix = raw.prefix ?? "";
  if (typeof prefix !== "string" || prefix.length > MAX_PREFIX_LENGTH) {
    report(
      "verify.prefix",
      "invalid_type",
      `prefix must be a string of at most ${MAX_PREFIX_LENGTH} characters.`,
    );
  }
  return {
    ...(header ? { header } : {}),
    encoding: encoding === "base64" ? "base64" : "hex",
    ...(typeof prefix === "string" && prefix !== "" ? { prefix } : {}),
  };
}

/** The delivery id each preset's sender puts on its calls, as a path into the node's output. */
export const PRESET_DEDUPE_KEYS: Partial<Record<SignaturePreset, string>> = {
  github: "headers.x-github-delivery",
  stripe: "body.id",
  shopify: "headers.x-shopify-webhook-id",
  "standard-webhooks": "headers.webhook-id",
};
/** The fields of `dedupe`. */
export const DEDUPE_FIELDS = ["key", "windowSeconds"];
/** How long a delivery's key is remembered (s): by default, and at most. */
export const DEFAULT_WINDOW_SECONDS = 86_400;
export const MAX_WINDOW_SECONDS = 86_400;
export const MAX_KEY_CHARS = 500;

/**
 * Reads `dedupe`, reporting under `dedupe.<field>`; `key` may be left out where the node's verify
 * preset supplies one.
 */
export function readDedupe(
  raw: unknown,
  preset: SignaturePreset | undefined,
  report: ReportProblem,
): WebhookDedupe | undefined {
  if (!isPlainObject(raw)) {
    report("dedupe", "invalid_type", "dedupe must be an object.");
    return undefined;
  }
  for (const field of Object.keys(raw)) {
    if (!DEDUPE_FIELDS.includes(field)) {
      report(`dedupe.${field}`, "unknown_field", "Unknown setting.");
    }
  }
  const key = raw.key;
  if (key === undefined && !(preset && PRESET_DEDUPE_KEYS[preset])) {
    report(
      "dedupe.key",
      "required",
      "dedupe needs a key (a template), or a verify preset that has one.",
    );
  } else if (
    key !== undefined &&
    (typeof key !== "string" || !key.includes("{{") || key.length > MAX_KEY_CHARS)
  ) {
    report(
      "dedupe.key",
      "invalid_type",
      `key must be a template over the call ({{…}}), at most ${MAX_KEY_CHARS} characters.`,
    );
  }
  const window = raw.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  if (
    typeof window !== "number" ||
    !Number.isInteger(window) ||
    window < 1 ||
    window > MAX_WINDOW_SECONDS
  ) {
    report(
      "dedupe.windowSeconds",
      "out_of_range",
      `windowSeconds must be an integer from 1 to ${MAX_WINDOW_SECONDS}.`,
    );
  }
  return {
    ...(typeof key === "string" && key !== "" ? { key } : {}),
    windowSeconds: typeof window === "number" ? window : DEFAULT_WINDOW_SECONDS,
  };
}

/** The template that names a call's delivery: the node's own `key`, or its preset's. */
export function dedupeKeyTemplate(node: {
  key: string;
  dedupe?: WebhookDedupe;
  verify?: WebhookVerify;
}): string | null {
  if (!node.dedupe) return null;
  if (node.dedupe.key) return node.dedupe.key;
  const path = node.verify ? PRESET_DEDUPE_KEYS[node.verify.preset] : undefined;
  return path ? `{{${node.key}.${path}}}` : null;
}

/** A webhook node's `verify` and `dedupe`, each when present. */
export function readCallChecks(
  raw: Record<string, unknown>,
  report: ReportProblem,
): { verify?: WebhookVerify; dedupe?: WebhookDedupe } {
  const verify = Object.hasOwn(raw, "verify") ? readVerify(raw.verify, report) : undefined;
  const claimed = isPlainObject(raw.verify) ? raw.verify.preset : undefined;
  const preset = verify?.preset ?? SIGNATURE_PRESETS.find((known) => known === claimed);
  const dedupe = Object.hasOwn(raw, "dedupe") ? readDedupe(raw.dedupe, preset, report) : undefined;
  return { ...(verify ? { verify } : {}), ...(dedupe ? { dedupe } : {}) };
}
