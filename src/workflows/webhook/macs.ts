/**
 * The cryptography a signature check needs (docs/webhooks.md#signatures): HMACs over message
 * parts, and comparisons in constant time.
 */
import { base64ToBytes, constantTimeEqual } from "../../platform/crypto";

const encoder = new TextEncoder();

/** The parts of a message as one run of bytes (text as UTF-8). */
export function concat(parts: (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const bytes = parts.map((part) => (typeof part === "string" ? encoder.encode(part) : part));
  const out = new Uint8Array(bytes.reduce((n, part) => n + part.byteLength, 0));
  let offset = 0;
  for (const part of bytes) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Text's UTF-8 bytes. */
export const utf8 = (text: string) => concat([text]);

/** An HMAC signer for `key`, imported once for the several messages a check may sign. */
export async function hmacKey(hash: "SHA-256" | "SHA-1", key: Uint8Array<ArrayBuffer>) {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash }, false, [
    "sign",
  ]);
  return async (parts: (string | Uint8Array)[]) =>
    new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, concat(parts)));
}

/** HMAC-SHA256 of `parts` under `secret`'s UTF-8 bytes (the handshakes' answers, X's check). */
export async function hmacSha256(secret: string, ...parts: (string | Uint8Array)[]) {
  return (await hmacKey("SHA-256", utf8(secret)))(parts);
}

/** Base64 (standard or URL-safe) as bytes, or null when it is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return base64ToBytes(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
}

/** True when any of `given` is `expected` (each compared in constant time). */
export function anyEqual(expected: string, given: readonly string[]): boolean {
  let found = false;
  for (const candidate of given) found = constantTimeEqual(expected, candidate) || found;
  return found;
}
