/**
 * The handshake presets' own checks (docs/webhooks.md#presets): microsoft-graph's shared
 * `clientState` and x's body signature, every comparison in constant time.
 */
import { bytesToBase64, constantTimeEqual } from "../../platform/crypto";
import { hmacSha256 } from "./macs";
import type { SignedRequest as Delivery, SignatureRefusal as Refusal } from "./preset-types";

const verdict = (ok: boolean): Refusal | null => (ok ? null : "bad_signature");

/** Each `value[].clientState` of a Graph notification body, or null when it has none. */
function clientStates(body: Uint8Array): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
  const value = (parsed as { value?: unknown } | null)?.value;
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((item) => {
    const state = (item as { clientState?: unknown } | null)?.clientState;
    return typeof state === "string" ? state : "";
  });
}

/**
 * The delivery checks the table cannot say (handshake-rows.ts marks them `own`): Graph's
 * clientState and X's signature, which must not sign what its CRC answer signs.
 */
export const HANDSHAKE_CHECKS = {
  // Graph signs nothing: the subscription's clientState comes back in every notification.
  async "microsoft-graph"({ body }: Delivery, secret: string): Promise<Refusal | null> {
    const states = clientStates(body);
    if (states === null) return "missing_header";
    let ok = true;
    for (const state of states) ok = constantTimeEqual(secret, state) && ok;
    return verdict(ok);
  },
  async x({ headers, body }: Delivery, secret: string): Promise<Refusal | null> {
    const given = headers["x-twitter-webhooks-signature"];
    if (!given) return "missing_header";
    // X delivers JSON objects. A CRC answer is an HMAC of its token under the same secret, so a
    // body that could be a token (handshakes.ts admits no `{` in one) is never taken as signed.
    if (body[0] !== 0x7b) return "bad_signature";
    const expected = `sha256=${bytesToBase64(await hmacSha256(secret, body))}`;
    return verdict(constantTimeEqual(expected, given));
  },
};
