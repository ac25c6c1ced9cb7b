/**
 * The `verify` presets whose senders shake hands before they deliver (docs/webhooks.md#handshakes):
 * their names, and the settings of the two that differ from the others: meta's `verifyToken`, and
 * asana, which names no secret (it is the one its handshake brings, kept sealed by the runner).
 */
import { z } from "@hono/zod-openapi";
import { setting } from "./common";

/** The handshake presets (docs/webhooks.md#presets), added to SIGNATURE_PRESETS. */
export const HANDSHAKE_PRESETS = [
  "meta",
  "zoom",
  "microsoft-graph",
  "dropbox",
  "x",
  "asana",
] as const;
export type HandshakePreset = (typeof HANDSHAKE_PRESETS)[number];

/**
 * The handshake presets whose senders sign no timestamp: a replayed delivery is only refused by
 * deduplication on its signature (docs/webhooks.md#deduplication). zoom stamps its calls;
 * microsoft-graph signs nothing (its `clientState` is the same on every delivery).
 */
export const UNSTAMPED_HANDSHAKE_PRESETS = ["meta", "dropbox", "x", "asana"] as const;

/** The presets with a schema of their own; the others take PresetVerify's `secret`. */
export const OWN_SCHEMA_PRESETS = ["meta", "asana"] as const;

/**
 * meta's and asana's `verify` schemas.
 * @param common the settings every preset takes (`secret`, `toleranceSeconds`)
 * @param preset describes a preset literal and reports an unknown one
 * @param secretTemplate `{{secrets.NAME}}` (SECRET_TEMPLATE)
 */
export function handshakeVerifySchemas<S extends z.ZodType, T extends z.ZodType>(
  common: { secret: S; toleranceSeconds: T },
  preset: <P extends z.ZodType>(schema: P, about: string) => P,
  secretTemplate: RegExp,
) {
  const MetaVerify = z.strictObject({
    preset: preset(
      z.literal("meta"),
      "Meta (WhatsApp, Messenger, Instagram): `secret` the app secret, `verifyToken` the Verify Token",
    ),
    ...common,
    verifyToken: setting(z.string().regex(secretTemplate), {
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
    toleranceSeconds: common.toleranceSeconds,
  });
  return { MetaVerify, AsanaVerify };
}
