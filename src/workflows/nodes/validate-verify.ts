/**
 * The `verify` setting of a webhook node (docs/webhooks.md#signatures): a preset, the workspace
 * secret that holds the signing secret and the preset's options; read with `dedupe`
 * (validate-dedupe.ts), whose defaults depend on the preset. Every problem is reported.
 */
import { isPlainObject } from "../engine/template";
import {
  HEADER_NAME,
  type ReportProblem,
  SIGNATURE_PRESETS,
  type SignaturePreset,
  type WebhookDedupe,
  type WebhookVerify,
} from "./types";
import { readDedupe } from "./validate-dedupe";

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

/** A webhook node's `verify` and `dedupe`, each when present. */
export function readCallChecks(
  raw: Record<string, unknown>,
  report: ReportProblem,
): { verify?: WebhookVerify; dedupe?: WebhookDedupe | false } {
  const verify = Object.hasOwn(raw, "verify") ? readVerify(raw.verify, report) : undefined;
  const claimed = isPlainObject(raw.verify) ? raw.verify.preset : undefined;
  const preset = verify?.preset ?? SIGNATURE_PRESETS.find((known) => known === claimed);
  const dedupe = Object.hasOwn(raw, "dedupe") ? readDedupe(raw.dedupe, preset, report) : undefined;
  return { ...(verify ? { verify } : {}), ...(dedupe !== undefined ? { dedupe } : {}) };
}
