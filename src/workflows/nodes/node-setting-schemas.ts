/**
 * Schemas of the fields every node has (`key`, `type`, `name`, `position`) and of the nested node
 * settings, for the OpenAPI document (docs/api/webhooks.md#definition): a webhook's `verify`
 * (docs/webhooks.md#signatures) and `dedupe` (docs/webhooks.md#deduplication), the reply headers
 * and bodies of an immediate webhook and a respond node (docs/webhooks.md#replies), and an
 * http_request's `retry` (docs/api/webhooks.md#http-request-node). Limits come from the validators (src/workflow), which
 * stay the authority; test/workflows/node-schemas.test.ts keeps the two in step.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import {
  DEFAULT_NAMES,
  MAX_NAME_LENGTH,
  MAX_POSITION,
  NUMBER_SETTINGS,
  RESERVED_KEYS,
} from "./node-settings";
import { HEADER_NAME, type NodeType, SIGNATURE_PRESETS } from "./types";
import {
  DEFAULT_WINDOW_SECONDS,
  MAX_KEY_CHARS,
  MAX_WINDOW_SECONDS,
  PRESET_DEDUPE_KEYS,
  UNSTAMPED_PRESETS,
  UNSTAMPED_WINDOW_SECONDS,
} from "./validate-dedupe";
import { KEY_PATTERN } from "./validate-node";
import {
  COOKIE_DOMAIN,
  MAX_BODY_BYTES,
  MAX_HEADER_VALUE,
  MAX_HEADERS,
  REFUSED_HEADERS,
} from "./validate-reply";
import { RETRY_LIMITS } from "./validate-retry";
import {
  DEFAULT_TOLERANCE_SECONDS,
  MAX_PREFIX_LENGTH,
  MAX_TOLERANCE_SECONDS,
  SECRET_TEMPLATE,
  SIGNATURE_ENCODINGS,
} from "./validate-verify";

/**
 * An optional setting that the validator fills in with `value` when absent. The default is told in
 * the description rather than as OpenAPI `default`: the SDK's generator (openapi-typescript) makes
 * every property with a `default` required, and these schemas also type request bodies.
 */
export function withDefault<T extends z.ZodType>(schema: T, value: unknown, description: string) {
  return schema.optional().openapi({ description: `${description} Default: ${shown(value)}.` });
}

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.map(shown).join(", ") : JSON.stringify(value);

/** Any JSON value (present: `z.unknown()` alone would let the key be left out in the document). */
export function anyJson(description: string) {
  return z
    .unknown()
    .refine((value) => value !== undefined, "Required.")
    .openapi({ description });
}

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/** A reply's body: any JSON of at most MAX_BODY_BYTES as JSON text, its strings templates. */
export function replyBody(description: string) {
  return z
    .unknown()
    .refine((value) => jsonBytes(value) <= MAX_BODY_BYTES, `At most ${MAX_BODY_BYTES} bytes.`)
    .optional()
    .openapi({ description: `${description} At most ${MAX_BODY_BYTES} bytes as JSON.` });
}

function headerProblem(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (!HEADER_NAME.test(lower)) return "Not a header name.";
  if (REFUSED_HEADERS.has(lower)) return `${lower} is set by the service, never by a workflow.`;
  if (lower === "set-cookie" && COOKIE_DOMAIN.test(value)) return "Leave out the cookie's Domain.";
  return undefined;
}

/**
 * Headers of an immediate webhook's reply or of a respond node, by name; values are templates.
 * Not a component of its own: each use has its own description.
 */
export function replyHeaders(description: string) {
  return z
    .record(z.string(), z.string().max(MAX_HEADER_VALUE))
    .superRefine((headers, ctx) => {
      if (Object.keys(headers).length > MAX_HEADERS) {
        ctx.addIssue({ code: "custom", message: `At most ${MAX_HEADERS} headers.` });
      }
      for (const [name, value] of Object.entries(headers)) {
        const message = headerProblem(name, value);
        if (message) ctx.addIssue({ code: "custom", path: [name], message });
      }
    })
    .optional()
    .openapi({
      maxProperties: MAX_HEADERS,
      description: `${description} Up to ${MAX_HEADERS}, names in any case (sent in lower case), values templates of at most ${MAX_HEADER_VALUE} characters as written and as resolved. Refused: ${[...REFUSED_HEADERS].join(", ")}, and a set-cookie with a Domain (docs/webhooks.md#replies).`,
    });
}

/** A numeric setting of NUMBER_SETTINGS, with its range and default. */
export function numberSetting(name: keyof typeof NUMBER_SETTINGS, description: string) {
  const rule = NUMBER_SETTINGS[name];
  const number = rule.integer ? z.number().int() : z.number();
  return withDefault(number.min(rule.min).max(rule.max), rule.fallback, description);
}

/**
 * The nested settings' schemas, built on first use: in the Worker only the management API needs
 * them, and it is built on its first request (src/routes.ts).
 */
export const nodeSettingSchemas = once(() => {
  const Key = z
    .string()
    .regex(KEY_PATTERN)
    .refine((key) => !RESERVED_KEYS.has(key), "A reserved word.")
    .optional()
    .openapi({
      description: `Unique in the workflow; names the node in templates and URLs. Not ${[...RESERVED_KEYS].join(", ")}. Default: \`<type>_<n>\` with the smallest n no other node has.`,
    });

  const Coordinate = z.number().min(-MAX_POSITION).max(MAX_POSITION);

  const Position = z
    .strictObject({ x: Coordinate, y: Coordinate })
    .optional()
    .openapi({ description: "Where the dashboard's canvas draws the node (px); runs ignore it." });

  /** `key`, `type`, `name` and `position`, which every node may have. */
  function common<T extends NodeType>(type: T) {
    return {
      key: Key,
      type: z.literal(type),
      name: withDefault(
        z.string().min(1).max(MAX_NAME_LENGTH),
        DEFAULT_NAMES[type],
        "Label shown on the canvas.",
      ),
      position: Position,
    };
  }

  /** A header name in any case: it is checked, and kept, in lower case. */
  const HeaderName = z
    .string()
    .refine((name) => HEADER_NAME.test(name.toLowerCase()), "Not a header name.")
    .openapi({ description: "A header name (HTTP token characters, 1 to 100), any case" });

  const verifyCommon = {
    secret: z.string().regex(SECRET_TEMPLATE).openapi({
      description: '`"{{secrets.NAME}}"`: the workspace secret that holds the signing secret',
      example: "{{secrets.GH_WEBHOOK_SECRET}}",
    }),
    toleranceSeconds: withDefault(
      z.number().int().min(1).max(MAX_TOLERANCE_SECONDS),
      DEFAULT_TOLERANCE_SECONDS,
      "Where the scheme signs a timestamp (stripe, slack, standard-webhooks): how far from now it may be (s).",
    ),
  };

  const PresetVerifySchema = z.strictObject({
    preset: z.enum(SIGNATURE_PRESETS).exclude(["hmac-sha256"]).openapi({
      description: "A sender's own scheme (docs/webhooks.md#presets)",
    }),
    ...verifyCommon,
  });

  const HmacVerifySchema = z.strictObject({
    preset: z.literal("hmac-sha256").openapi({
      description: "Any sender that signs the body with HMAC-SHA256 into a header of its own",
    }),
    ...verifyCommon,
    header: HeaderName.openapi({ description: "The header that holds the signature" }),
    encoding: withDefault(
      z.enum(SIGNATURE_ENCODINGS),
      SIGNATURE_ENCODINGS[0],
      "How the signature is written (hex compares case-insensitively).",
    ),
    prefix: withDefault(
      z.string().max(MAX_PREFIX_LENGTH),
      "",
      "Text before the signature in the header, such as `sha256=`.",
    ),
  });

  /** A webhook node's `verify`: `header`, `encoding` and `prefix` for the hmac-sha256 preset only. */
  const WebhookVerifySchema = z
    .discriminatedUnion("preset", [PresetVerifySchema, HmacVerifySchema])
    .openapi("WebhookVerify", {
      description:
        "The sender's signature, checked over the raw body before anything runs; a call that does not verify is answered 401 invalid_signature (docs/webhooks.md#signatures).",
    });

  const ids = Object.entries(PRESET_DEDUPE_KEYS).map(([preset, path]) => `${preset} \`${path}\``);
  const unstamped = UNSTAMPED_PRESETS.join(", ");

  /** A webhook node's `dedupe` object; `key` is required unless the node has a verify preset. */
  const WebhookDedupeSchema = z
    .strictObject({
      key: z
        .string()
        .max(MAX_KEY_CHARS)
        .includes("{{")
        .optional()
        .openapi({
          description: `A template (it must hold \`{{\`) over this node's own output naming the delivery, such as \`{{webhook_1.headers.x-github-delivery}}\`. Required unless the node has a verify preset, whose delivery id is then the key (${ids.join(", ")}; hmac-sha256 has none). With a preset that signs no timestamp (${unstamped}) the call's signature names the delivery too, whatever the key.`,
        }),
      windowSeconds: z
        .number()
        .int()
        .min(1)
        .max(MAX_WINDOW_SECONDS)
        .optional()
        .openapi({
          description: `How long a key is remembered (s). Default: ${UNSTAMPED_WINDOW_SECONDS} with a verify preset that signs no timestamp (${unstamped}), else ${DEFAULT_WINDOW_SECONDS}.`,
        }),
    })
    .openapi("WebhookDedupe", {
      description:
        "A delivery whose key was seen within the window starts nothing and is answered as the first one, with `x-deduplicated: true` (docs/webhooks.md#deduplication).",
    });

  /** A webhook node's `dedupe`: an object, or false for none; absent, the verify preset's default. */
  const WebhookDedupeSettingSchema = z
    .union([
      z.literal(false).openapi({ description: "No deduplication, not even the preset's default" }),
      WebhookDedupeSchema,
    ])
    .optional()
    .openapi({
      description: `Repeated deliveries (docs/webhooks.md#deduplication). Left out, a node with \`verify\` dedupes on the preset's delivery id, and where the preset signs no timestamp (${unstamped}) on the signature too, for ${UNSTAMPED_WINDOW_SECONDS} s or else ${DEFAULT_WINDOW_SECONDS} s; false turns that off.`,
    });

  const { maxAttempts, backoffSeconds, on } = RETRY_LIMITS;

  /** An http_request node's `retry`. */
  const HttpRetrySchema = z
    .strictObject({
      maxAttempts: z.number().int().min(maxAttempts.min).max(maxAttempts.max).openapi({
        description: "Attempts in all, the first included",
      }),
      backoffSeconds: withDefault(
        z.number().min(backoffSeconds.min).max(backoffSeconds.max),
        backoffSeconds.fallback,
        "The wait before the second attempt (s), doubled before each next one, ±20 % jitter.",
      ),
      on: z
        .array(z.number().int().min(on.min).max(on.max))
        .min(1)
        .optional()
        .openapi({ description: "The statuses retried. Default: 429 and every 5xx." }),
    })
    .openapi("HttpRetry", {
      description:
        "Attempts again after a network error, a timeout or a status in `on`; then the node fails as it would have (docs/api/webhooks.md#http-request-node).",
    });

  return { common, WebhookVerifySchema, WebhookDedupeSettingSchema, HttpRetrySchema };
});

/** The types of the schemas `nodeSettingSchemas` builds, by name. */
export type NodeSettingSchemas = ReturnType<typeof nodeSettingSchemas>;
