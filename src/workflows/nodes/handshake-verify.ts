/**
 * The settings of the handshake presets (docs/webhooks.md#handshakes) that differ from the others:
 * meta's `verifyToken`, and asana, which names no secret (it is the one its handshake brings, kept
 * sealed by the runner). Their rows: webhook/handshake-rows.ts.
 */
import { z } from "@hono/zod-openapi";
import { setting } from "./common";

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
