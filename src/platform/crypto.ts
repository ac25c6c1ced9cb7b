/** Random secrets, SHA-256, constant-time comparison and checksummed keys (docs/security.md). */

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const encoder = new TextEncoder();

/**
 * Random bytes drawn from the system's generator a pool at a time and each used once: ids are
 * made on every webhook call (two per call), and one draw per id cost more than the id's own work.
 */
const pool = new Uint8Array(4096);
let pooled = 0;

/** The next unused random byte. */
function randomByte(): number {
  if (pooled === 0) {
    crypto.getRandomValues(pool);
    pooled = pool.length;
  }
  pooled--;
  const byte = pool[pooled] as number;
  pool[pooled] = 0; // used once: nothing of an id or secret made stays behind
  return byte;
}

/** Returns `length` base62 characters drawn uniformly (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 62 * 4: bytes at or above it would bias the first characters.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** The two hex digits of each byte value, made once: a digest's hex is on every keyed call. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lower-case hex of the bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte] as string;
  return hex;
}

/** Bytes turned into characters per `fromCharCode` call: far below any engine's argument limit. */
const CHARS_PER_CALL = 8192;

/** Standard base64 (with padding) of the bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  // A call per chunk, not per byte: sealed records and bodies are encoded on every webhook call.
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHARS_PER_CALL) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHARS_PER_CALL) as never);
  }
  return btoa(binary);
}

/** The bytes of standard base64. @throws DOMException when the text is not base64 */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Base64url (no padding) of the bytes. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of base64url, padded or not. @throws DOMException when the text is not base64url */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const padded = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(base64ToBytes(padded.padEnd(Math.ceil(padded.length / 4) * 4, "=")));
}

/** Base64url (no padding) of `byteLength` random bytes; the link token format (docs/security.md). */
export function randomBase64Url(byteLength: number): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** Lower-case hex SHA-256 of the UTF-8 text: the only form in which secrets are stored. */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

/** Compares two strings in time depending only on their lengths (no guessing char by char). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.byteLength !== right.byteLength) {
    crypto.subtle.timingSafeEqual(left, left);
    return false;
  }
  return crypto.subtle.timingSafeEqual(left, right);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of the UTF-8 text, as an unsigned 32-bit integer. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of encoder.encode(text)) {
    crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function base62Fixed(value: number, width: number): string {
  let out = "";
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, "0");
}

const SECRET_BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

/** A checksummed secret: `prefix` + 32 base62 + their 6-char base62 CRC-32 (docs/security.md). */
export function generateChecksummedSecret(prefix: string): string {
  const body = randomBase62(SECRET_BODY_LENGTH);
  return `${prefix}${body}${base62Fixed(crc32(body), CHECKSUM_LENGTH)}`;
}

/** True when `secret` has the prefix, the length and a matching checksum; no storage is read. */
export function hasValidChecksum(secret: string, prefix: string): boolean {
  if (!secret.startsWith(prefix)) return false;
  const rest = secret.slice(prefix.length);
  if (rest.length !== SECRET_BODY_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(rest)) {
    return false;
  }
  const body = rest.slice(0, SECRET_BODY_LENGTH);
  return constantTimeEqual(
    rest.slice(SECRET_BODY_LENGTH),
    base62Fixed(crc32(body), CHECKSUM_LENGTH),
  );
}
