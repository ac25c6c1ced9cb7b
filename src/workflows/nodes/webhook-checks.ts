/**
 * A webhook node's checks of the calls it gets: `verify`, the sender's signature
 * (docs/webhooks.md#signatures), and `dedupe`, repeated deliveries (docs/webhooks.md#deduplication),
 * with what a node dedupes on when it runs, the presets' defaults included.
 */
import { z } from "@hono/zod-openapi";
import type { Row, VerifySettings } from "../webhook/preset-types";
import { signsNoTimestamp } from "../webhook/preset-types";
import { PRESETS } from "../webhook/presets";
import { setting, wholeNumber, withDefault, withoutNulls } from "./common";
import { HEADER_NAME } from "./reply";

/** Signature schemes a webhook node can check, one row each (docs/webhooks.md#presets). */
export const SIGNATURE_PRESETS = Object.keys(PRESETS) as [SignaturePreset, ...SignaturePreset[]];
export type SignaturePreset = keyof typeof PRESETS;
/** The presets whose node names its own header, encoding and prefix. */
const GENERIC = ["hmac-sha256", "hmac-sha1"] as const;
/** The handshake presets with settings of their own (docs/webhooks.md#handshakes). */
const OWN_SCHEMA_PRESETS = ["meta", "asana"] as const;
/** `{{secrets.NAME}}` and nothing else: a secret the signature is checked with. */
export const SECRET_TEMPLATE = /^\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;
/** The delivery id `preset`'s sender puts on its calls, as a path into the node's output. */
const deliveryIdOf = (preset: SignaturePreset) => (PRESETS[preset] as Row).dedupe;
/**
 * The presets that sign no timestamp: a replayed call is as good as new to the check, and only
 * deduplication refuses it, on its signature (their delivery ids are not signed).
 */
const UNSTAMPED = SIGNATURE_PRESETS.filter((name) => signsNoTimestamp(PRESETS[name]));
/** How long a delivery's key is remembered (s), by default: a day, a week where nothing is stamped. */
const DAY = 86_400;
const WEEK = 604_800;

/** Each preset's line of the table, for the OpenAPI document's `x-enumDescriptions`. */
const describe = (names: readonly SignaturePreset[]) =>
  Object.fromEntries(names.map((name) => [name, PRESETS[name].about]));

const isGeneric = (name: unknown) => GENERIC.some((generic) => generic === name);
/** The presets PresetVerify takes: not the generic ones, nor those with settings of their own. */
const sharedSchema = (name: string) =>
  !isGeneric(name) && !OWN_SCHEMA_PRESETS.some((own) => own === name);

const preset = <T extends z.ZodType>(schema: T, about: string) =>
  setting(schema, {
    about,
    code: "invalid_option",
    message: `Use ${SIGNATURE_PRESETS.join(", ")}.`,
  });

/**
 * A webhook node's `verify` setting (docs/webhooks.md#signatures), built with the node's model:
 * `header`, `encoding` and `prefix` for the generic presets only (`not_allowed` with another);
 * meta's `verifyToken`; asana names no secret (its handshake brings one, kept sealed by the
 * runner). A preset that is none of them is judged as the first, so every other problem is
 * listed too.
 */
export function verifySetting() {
  const template = z.string().regex(SECRET_TEMPLATE);
  const verifyCommon = {
    secret: setting(z.union([template, z.array(template).length(2)]), {
      about:
        '`"{{secrets.NAME}}"`: the workspace secret that holds the signing secret; or two, `["{{secrets.NEW}}", "{{secrets.OLD}}"]`, while it rotates: either verifies, and the request log names the one that did (docs/webhooks.md#rotation)',
      example: "{{secrets.GH_WEBHOOK_SECRET}}",
      code: "invalid_secret",
      message: 'Name a workspace secret, "{{secrets.NAME}}", or two in a list.',
    }),
    toleranceSeconds: withDefault(z.number().int().min(1).max(DAY), 300, {
      about:
        "Where the scheme signs a timestamp (stripe, slack, standard-webhooks, …: docs/webhooks.md#presets): how far from now it may be (s).",
      code: "out_of_range",
      message: `An integer from 1 to ${DAY}.`,
    }),
  };

  const HmacVerify = z.strictObject({
    preset: preset(
      z.enum(GENERIC).openapi({ "x-enumDescriptions": describe(GENERIC) }),
      "Any sender that signs the body with HMAC-SHA256 or HMAC-SHA1 into a header of its own",
    ),
    ...verifyCommon,
    header: setting(
      z.string().refine((name) => HEADER_NAME.test(name.toLowerCase())),
      {
        about: "The header that holds the signature",
        code: "required",
        message: "hmac-sha256 and hmac-sha1 need the header that holds the signature.",
      },
    ),
    encoding: withDefault(z.enum(["hex", "base64"]), "hex", {
      about: "How the signature is written (hex compares case-insensitively).",
      code: "invalid_option",
      message: "Use hex or base64.",
    }),
    prefix: withDefault(z.string().max(64), "", {
      about: "Text before the signature in the header, such as `sha256=`.",
      code: "invalid_type",
      message: "A string of at most 64 characters.",
    }),
  });

  const PresetVerify = z.strictObject({
    preset: preset(
      z
        .enum(SIGNATURE_PRESETS)
        .exclude([...GENERIC, ...OWN_SCHEMA_PRESETS])
        .openapi({
          "x-enumDescriptions": describe(SIGNATURE_PRESETS.filter(sharedSchema)),
        }),
      `A sender's own scheme (docs/webhooks.md#presets): ${SIGNATURE_PRESETS.filter(sharedSchema)
        .map((name) => `\`${name}\`, ${PRESETS[name].about}`)
        .join("; ")}.`,
    ),
    ...verifyCommon,
  });
  const MetaVerify = z.strictObject({
    preset: preset(
      z.literal("meta"),
      "Meta (WhatsApp, Messenger, Instagram): `secret` the app secret, `verifyToken` the Verify Token",
    ),
    ...verifyCommon,
    verifyToken: setting(template, {
      about:
        '`"{{secrets.NAME}}"`: the workspace secret holding the Verify Token entered in the App Dashboard; a subscription request (GET `hub.mode=subscribe`) with another token is answered 403',
      example: "{{secrets.META_VERIFY_TOKEN}}",
      code: "invalid_secret",
      message: 'Name a workspace secret: "{{secrets.NAME}}".',
    }),
  });
  const AsanaVerify = z.strictObject({
    preset: preset(
      z.literal("asana"),
      "Asana: no secret to name; the X-Hook-Secret of the handshake is kept, sealed, and checks later deliveries (docs/webhooks.md#handshakes)",
    ),
    toleranceSeconds: verifyCommon.toleranceSeconds,
  });

  return withoutNulls(
    // Another preset's `encoding: null` is still a setting it does not take.
    ({ preset }) => ["toleranceSeconds", ...(isGeneric(preset) ? ["encoding", "prefix"] : [])],
    z
      .discriminatedUnion("preset", [PresetVerify, HmacVerify, MetaVerify, AsanaVerify], {
        unionFallback: true,
      })
      .transform((verify): WebhookVerify => {
        if (!("header" in verify)) return verify;
        const { prefix, header, ...rest } = verify;
        return { ...rest, header: header.toLowerCase(), ...(prefix ? { prefix } : {}) };
      })
      .openapi("WebhookVerify", {
        description: `The sender's signature, checked over the raw body before anything runs; a call that does not verify is answered 401 invalid_signature (docs/webhooks.md#signatures). \`preset\`: ${SIGNATURE_PRESETS.join(", ")} (docs/webhooks.md#presets); \`secret\`: \`"{{secrets.NAME}}"\`, or two while it rotates, \`["{{secrets.NEW}}", "{{secrets.OLD}}"]\`.`,
      }),
  );
}

/** A webhook node's `dedupe` setting (docs/webhooks.md#deduplication), built with its model. */
export function dedupeSetting() {
  const ids = SIGNATURE_PRESETS.filter(deliveryIdOf).map(
    (name) => `${name} \`${deliveryIdOf(name)}\``,
  );
  const unstamped = UNSTAMPED.join(", ");

  /** A webhook node's `dedupe` object; `key` is required unless the node has a verify preset. */
  const Dedupe = z
    .strictObject({
      key: setting(z.string().max(500).includes("{{").optional(), {
        about: `A template (it must hold \`{{\`) over this node's own output naming the delivery, such as \`{{webhook_1.headers.x-github-delivery}}\`. Required unless the node has a verify preset, whose delivery id is then the key (${ids.join(", ")}; hmac-sha256 has none). With a preset that signs no timestamp (${unstamped}) the call's signature names the delivery too, whatever the key.`,
        code: "invalid_type",
        message: "A template over the call ({{…}}), at most 500 characters.",
      }),
      windowSeconds: wholeNumber(
        1,
        WEEK,
        `How long a key is remembered (s). Default: ${WEEK} with a verify preset that signs no timestamp (${unstamped}), else ${DAY}.`,
        `An integer from 1 to ${WEEK}.`,
      ).optional(),
    })
    .openapi("WebhookDedupe", {
      description:
        "A delivery whose key was seen within the window starts nothing and is answered as the first one, with `x-deduplicated: true` (docs/webhooks.md#deduplication).",
    });

  // An object, or false for none; absent, the verify preset's default.
  return z
    .union([
      z.literal(false).openapi({ description: "No deduplication, not even the preset's default" }),
      withoutNulls(() => ["windowSeconds"], Dedupe),
    ])
    .optional()
    .openapi({
      description: `Repeated deliveries (docs/webhooks.md#deduplication). Left out, a node with \`verify\` dedupes on the preset's delivery id, and where the preset signs no timestamp (${unstamped}) on the signature too, for ${WEEK} s or else ${DAY} s; false turns that off.`,
    });
}

/**
 * A webhook node's signature check, with its defaults: `secret` absent for asana alone,
 * `verifyToken` meta's (docs/webhooks.md#handshakes), the generic presets' own fields for them.
 */
export type WebhookVerify = VerifySettings & {
  preset: SignaturePreset;
  secret?: string | string[];
  verifyToken?: string;
};

/** A webhook node's deduplication of repeated deliveries; stored with its window filled in. */
export type WebhookDedupe = { key?: string; windowSeconds?: number };

/** The window a node's dedupe gets when it names none (s): a week where nothing is stamped. */
export const defaultWindowSeconds = (preset: SignaturePreset | undefined) =>
  preset && UNSTAMPED.includes(preset) ? WEEK : DAY;

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
  const signature = verify !== undefined && UNSTAMPED.includes(verify.preset);
  const path = verify && !signature ? deliveryIdOf(verify.preset) : undefined;
  const key = dedupe?.key ?? (path ? `{{${node.key}.${path}}}` : undefined);
  const windowSeconds = dedupe?.windowSeconds ?? defaultWindowSeconds(verify?.preset);
  return { keys: key ? [key] : [], signature, windowSeconds };
}
