/**
 * SHA-256 computed synchronously, for the widget key's digest on every launch API call
 * (docs/security.md#credentials). `crypto.subtle.digest` is asynchronous: its promise, the copy of
 * the text and the result's buffer cost more than the hash of a key of about 50 bytes, and a
 * look-up awaited it before anything else (docs/performance.md#look-up-and-revoke-without-the-app).
 * The hash is `@noble/hashes` (audited, no dependencies), not our own;
 * `test/platform/sha256-sync.test.ts` compares it with `crypto.subtle.digest`.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "./crypto";

const encoder = new TextEncoder();

/** Lower-case hex SHA-256 of the UTF-8 text, as `sha256Hex` gives it, without a promise. */
export function sha256HexSync(text: string): string {
  return bytesToHex(sha256(encoder.encode(text)));
}
