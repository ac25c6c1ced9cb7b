/**
 * Twilio's signature (docs/webhooks.md#presets): HMAC-SHA1 of the URL and the form's sorted
 * fields, which a table row cannot say.
 */
import { bytesToBase64, bytesToHex, constantTimeEqual } from "../../platform/crypto";
import { concat, hmacKey, utf8 } from "./macs";
import type { Check } from "./preset-types";

/** A Twilio form's fields as `twilio`'s getExpectedTwilioSignature signs them: sorted, deduplicated. */
function twilioFields(params: URLSearchParams): string {
  const fields = [...params];
  fields.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return fields
    .filter(
      ([name, value], i) => i === 0 || fields[i - 1]?.[0] !== name || fields[i - 1]?.[1] !== value,
    )
    .map(([name, value]) => name + value)
    .join("");
}

const STANDARD_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * The URLs Twilio may have signed for a call to `url`: as received, with the runtime's `'` → `%27`
 * undone, and each with the standard port the runtime drops (as Twilio's validateRequest accepts).
 */
function twilioUrls(url: string): string[] {
  const query = url.indexOf("?");
  const urls = [url];
  if (query !== -1 && url.includes("%27", query)) {
    urls.push(url.slice(0, query) + url.slice(query).replaceAll("%27", "'"));
  }
  const { protocol, host, port } = new URL(url);
  const origin = `${protocol}//${host}`;
  const standard = STANDARD_PORTS[protocol];
  if (port !== "" || !standard || !url.startsWith(origin)) return urls;
  return [...urls, ...urls.map((each) => `${origin}:${standard}${each.slice(origin.length)}`)];
}

/** Checks `X-Twilio-Signature`: null when it verifies, else why not. */
export const twilioCheck: Check = async ({ url, headers, body }, secret) => {
  const given = headers["x-twilio-signature"];
  if (!given) return "missing_header";
  // A form body's fields are signed after the URL, sorted by name; a JSON body is signed by
  // the URL's bodySHA256 parameter instead, which must then be the body's digest.
  let fields = "";
  const claimed = new URL(url).searchParams.get("bodySHA256");
  if ((headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
    fields = twilioFields(new URLSearchParams(new TextDecoder().decode(body)));
  } else if (claimed !== null || body.byteLength > 0) {
    const digest = bytesToHex(
      new Uint8Array(await crypto.subtle.digest("SHA-256", concat([body]))),
    );
    if (!constantTimeEqual(digest, (claimed ?? "").toLowerCase())) return "bad_signature";
  }
  const signer = await hmacKey("SHA-1", utf8(secret));
  let found = false;
  for (const candidate of twilioUrls(url)) {
    const expected = bytesToBase64(await signer([candidate + fields]));
    found = constantTimeEqual(expected, given) || found;
  }
  return found ? null : "bad_signature";
};
