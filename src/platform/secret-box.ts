/**
 * Encryption at rest of workspace secrets (docs/security.md): AES-256-GCM on Web Crypto under the
 * `SECRETS_KEY` Worker secret. A sealed value is `base64(12-byte random iv || ciphertext || 16-byte tag)`,
 * bound by additional authenticated data to its workspace and name ({@link secretAad}).
 */
import { base64ToBytes, bytesToBase64 } from "./crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF of a value, so every string round-trips exactly.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// One key per deployment: caching the last import spares an importKey on every request of the isolate.
let cached: { base64: string; key: Promise<CryptoKey> } | undefined;

/** The 32 bytes of `SECRETS_KEY`. @throws Error when it is missing, not base64 or not 32 bytes */
function keyBytes(base64: string | undefined): Uint8Array<ArrayBuffer> {
  if (!base64) throw new Error("SECRETS_KEY is not set; it must be base64 of 32 random bytes.");
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = Uint8Array.from(base64ToBytes(base64.trim()));
  } catch {
    throw new Error("SECRETS_KEY is not valid base64; it must be base64 of 32 random bytes.");
  }
  if (raw.byteLength !== KEY_BYTES) {
    throw new Error(`SECRETS_KEY decodes to ${raw.byteLength} bytes; it must be exactly 32.`);
  }
  return raw;
}

/**
 * Imports `SECRETS_KEY` (base64 of exactly 32 bytes) as a non-extractable AES-GCM key, cached per
 * isolate. @throws Error when the key is missing, not base64 or not 32 bytes: an operator
 * misconfiguration, answered as 500.
 */
export async function importSecretsKey(base64: string | undefined): Promise<CryptoKey> {
  if (cached && base64 && cached.base64 === base64) return cached.key;
  const key = crypto.subtle.importKey("raw", keyBytes(base64), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  cached = { base64: base64 as string, key };
  return key;
}

const derived = new Map<string, { base64: string; key: Promise<CryptoKey> }>();

/**
 * An HMAC-SHA-256 key derived from `SECRETS_KEY` by HKDF-SHA-256 for one `purpose` (its info), so
 * what is computed with it reveals nothing of the AES key or of another purpose's values. It lets
 * the service give a token again without storing it (docs/security.md#secrets-at-rest). Cached
 * per isolate. @throws Error as {@link importSecretsKey}
 */
export async function derivedHmacKey(
  base64: string | undefined,
  purpose: string,
): Promise<CryptoKey> {
  const hit = derived.get(purpose);
  if (hit && hit.base64 === base64) return hit.key;
  const raw = keyBytes(base64);
  const key = crypto.subtle
    .importKey("raw", raw, "HKDF", false, ["deriveKey"])
    .then((master) =>
      crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: encoder.encode(purpose) },
        master,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign"],
      ),
    );
  derived.set(purpose, { base64: base64 as string, key });
  return key;
}

/** The additional authenticated data of a secret: a sealed value only opens under the same pair. */
export function secretAad(workspaceId: string, name: string): string {
  return `${workspaceId}/${name}`;
}

/** Encrypts `plaintext` with a fresh random iv; returns `base64(iv || ciphertext || tag)`. */
export async function sealSecret(key: CryptoKey, plaintext: string, aad: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
    key,
    encoder.encode(plaintext),
  );
  const sealed = new Uint8Array(IV_BYTES + ciphertext.byteLength);
  sealed.set(iv);
  sealed.set(new Uint8Array(ciphertext), IV_BYTES);
  return bytesToBase64(sealed);
}

/**
 * Decrypts a value of {@link sealSecret}. @throws Error when it is malformed, was tampered with, was
 * sealed under another key, or under another `aad` (moved to another workspace or name).
 */
export async function openSecret(key: CryptoKey, sealed: string, aad: string): Promise<string> {
  try {
    const bytes = base64ToBytes(sealed);
    if (bytes.byteLength < IV_BYTES + TAG_BYTES) throw new Error("too short");
    const plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: encoder.encode(aad) },
      key,
      bytes.subarray(IV_BYTES),
    );
    return decoder.decode(plaintext);
  } catch {
    // The cause is deliberately not passed on: all failures mean the same to the caller.
    throw new Error(`A secret could not be decrypted for ${aad} (wrong key, tampered or moved).`);
  }
}
