/**
 * The `dedupe` setting of a webhook node (docs/webhooks.md#deduplication): the key that identifies
 * a delivery and how long it is remembered, `false` for none; and what a node dedupes on when it
 * runs, the presets' defaults included, for definitions saved before they existed too.
 */
import { isPlainObject } from "../engine/template";
import type { ReportProblem, SignaturePreset, WebhookDedupe, WebhookVerify } from "./types";

/** The delivery id each preset's sender puts on its calls, as a path into the node's output. */
export const PRESET_DEDUPE_KEYS: Partial<Record<SignaturePreset, string>> = {
  github: "headers.x-github-delivery",
  stripe: "body.id",
  slack: "body.event_id",
  shopify: "headers.x-shopify-webhook-id",
  twilio: "headers.i-twilio-idempotency-token",
  "standard-webhooks": "headers.webhook-id",
};
/**
 * The presets that sign no timestamp: a replayed call is as good as new to the check, and only
 * deduplication refuses it, on its signature (their delivery ids are not signed).
 */
export const UNSTAMPED_PRESETS: readonly SignaturePreset[] = [
  "github",
  "shopify",
  "twilio",
  "hmac-sha256",
];
/** The fields of `dedupe`. */
export const DEDUPE_FIELDS = ["key", "windowSeconds"];
/** How long a delivery's key is remembered (s), by default: a day, a week where nothing is stamped. */
export const DEFAULT_WINDOW_SECONDS = 86_400;
export const UNSTAMPED_WINDOW_SECONDS = 604_800;
export const MAX_WINDOW_SECONDS = 604_800;
export const MAX_KEY_CHARS = 500;

/** The window a node's dedupe gets when it names none (s). */
export function defaultWindowSeconds(preset: SignaturePreset | undefined): number {
  return preset && UNSTAMPED_PRESETS.includes(preset)
    ? UNSTAMPED_WINDOW_SECONDS
    : DEFAULT_WINDOW_SECONDS;
}

/**
 * Reads `dedupe`, reporting under `dedupe.<field>`: `false` (no deduplication), or an object whose
 * `key` may be left out where the node has a verify preset.
 * @returns the setting with its defaults, or undefined where it is too broken to keep
 */
export function readDedupe(
  raw: unknown,
  preset: SignaturePreset | undefined,
  report: ReportProblem,
): WebhookDedupe | false | undefined {
  if (raw === false) return false;
  if (!isPlainObject(raw)) {
    report("dedupe", "invalid_type", "dedupe must be an object, or false.");
    return undefined;
  }
  for (const field of Object.keys(raw)) {
    if (!DEDUPE_FIELDS.includes(field)) {
      report(`dedupe.${field}`, "unknown_field", "Unknown setting.");
    }
  }
  const key = raw.key;
  if (key === undefined && !preset) {
    report("dedupe.key", "required", "dedupe needs a key (a template), or a verify preset.");
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
  const fallback = defaultWindowSeconds(preset);
  const window = raw.windowSeconds ?? fallback;
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
    windowSeconds: typeof window === "number" ? window : fallback,
  };
}

/** What a node dedupes a call on, when it does (docs/webhooks.md#deduplication). */
export type DedupePlan = {
  /** Templates over the node's output; each that resolves names the delivery. */
  keys: string[];
  /** The call's verified signature names it too (a preset that signs no timestamp). */
  signature: boolean;
  windowSeconds: number;
};

/**
 * What the node dedupes on, decided when a call arrives, so a definition saved before a default
 * existed gets it too: with `dedupe: false` or neither `dedupe` nor `verify`, nothing; with an
 * object, its key (or the preset's delivery id) and window; with `verify` alone, the preset's
 * delivery id for the default window. A preset that signs no timestamp dedupes on the signature
 * instead of its delivery id: the id is not signed, so a replayer could change it, while every
 * retry and replay of a delivery repeats the signature (one key claimed, not two). A key set in
 * `dedupe` is kept, and the signature is added to it.
 */
export function dedupePlan(node: {
  key: string;
  dedupe?: WebhookDedupe | false;
  verify?: WebhookVerify;
}): DedupePlan | null {
  const { dedupe, verify } = node;
  if (dedupe === false || (!dedupe && !verify)) return null;
  const unstamped = verify !== undefined && UNSTAMPED_PRESETS.includes(verify.preset);
  const path = verify && !unstamped ? PRESET_DEDUPE_KEYS[verify.preset] : undefined;
  const key = dedupe?.key ?? (path ? `{{${node.key}.${path}}}` : undefined);
  return {
    keys: key ? [key] : [],
    signature: unstamped,
    windowSeconds: dedupe ? dedupe.windowSeconds : defaultWindowSeconds(verify?.preset),
  };
}
