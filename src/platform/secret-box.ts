/**
 * Encryption at rest (docs/security.md): AES-256-GCM under `SECRETS_KEY`, bound by AAD to what a
 * value belongs to (e.g. {@link secretAad}); `SECRETS_KEY_PREVIOUS` keys still open what they
 * sealed, so keys rotate without downtime (docs/security.md#rotating-keys).
 */
import { base64ToBytes, bytesToBase64 } from "./crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF of a value, so every string round-trips exactly.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The 32 bytes of a key. @throws Error when it is missing, not base64 or not 32 bytes */
function keyBytes(base64: string | undefined, name = "SECRETS_KEY"): Uint8Array<ArrayBuffer> {
  if (!base64) throw new Error(`${name} is not set; it must be base64 of 32 random bytes.`);
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = Uint8Array.from(base64ToBytes(base64.trim()));
  } catch {
    throw new Error(`${name} is not valid base64; it must be base64 of 32 random bytes.`);
  }
  if (raw.byteLength !== KEY_BYTES) {
    throw new Error(`${name} decodes to ${raw.byteLength} bytes; it must be exactly 32.`);
  }
  return raw;
}

/** The Worker secrets that hold the sealing keys (docs/security.md#rotating-keys). */
export type KeyConfig = { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string };

/** A sealing key and its id: hex of the first 8 bytes of the key's SHA-256. */
type SealingKey = { id: string; key: CryptoKey };

/** `current` (`SECRETS_KEY`) seals; it and `previous` (`SECRETS_KEY_PREVIOUS`, comma-separated) open. */
export type Keyring = { current: SealingKey; previous: SealingKey[] };

async function sealingKey(base64: string | undefined, name: string): Promise<SealingKey> {
  const raw = keyBytes(base64, name);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  const id = Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  return { id, key };
}

// One key configuration per deployment: caching the last keyring spares an importKey per request.
let cached: { config: string; ring: Promise<Keyring> } | undefined;

/**
 * The keyring of the Worker's secrets, cached per isolate.
 * @throws Error when a key is missing, not base64 or not 32 bytes (misconfiguration: a 500)
 */
export function keyring(config: KeyConfig): Promise<Keyring> {
  const text = `${config.SECRETS_KEY ?? ""}|${config.SECRETS_KEY_PREVIOUS ?? ""}`;
  if (cached?.config === text) return cached.ring;
  const previous = (config.SECRETS_KEY_PREVIOUS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const ring = Promise.all([
    sealingKey(config.SECRETS_KEY, "SECRETS_KEY"),
    ...previous.map((entry) => sealingKey(entry, "SECRETS_KEY_PREVIOUS")),
  ]).then(([current, ...older]) => ({ current: current as SealingKey, previous: older }));
  // A failed import is not cached: the next request reports it again.
  ring.catch(() => {
    if (cached?.ring === ring) cached = undefined;
  });
  cached = { config: text, ring };
  return ring;
}

const derived = new Map<string, { base64: string; key: Promise<CryptoKey> }>();

/**
 * An HMAC-SHA-256 key derived from `SECRETS_KEY` by HKDF for one `purpose`, revealing nothing of
 * the AES key or other purposes; gives a token again without storing it
 * (docs/security.md#secrets-at-rest). Cached per isolate. @throws Error as {@link keyring}
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

/** A sealed value: `k1.<key id>.<base64(12-byte iv || ciphertext || 16-byte tag)>`. */
const SEALED = /^k1\.([0-9a-f]{16})\.(.*)$/s;

/** Encrypts `plaintext` under the current key with a fresh random iv, as {@link SEALED}. */
export async function sealSecret(ring: Keyring, plaintext: string, aad: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
    ring.current.key,
    encoder.encode(plaintext),
  );
  const sealed = new Uint8Array(IV_BYTES + ciphertext.byteLength);
  sealed.set(iv);
  sealed.set(new Uint8Array(ciphertext), IV_BYTES);
  return `k1.${ring.current.id}.${bytesToBase64(sealed)}`;
}

/**
 * Decrypts a value of {@link sealSecret} with the key its id names (one older than key ids: with
 * each key in turn).
 * @throws Error when malformed, tampered with, under a key not held, or under another `aad`
 */
export async function openSecret(ring: Keyring, sealed: string, aad: string): Promise<string> {
  const named = SEALED.exec(sealed);
  if (named) {
    const key = [ring.current, ...ring.previous].find((candidate) => candidate.id === named[1]);
    if (!key) {
      throw new Error(
        `A secret for ${aad} is sealed under key ${named[1]}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS.`,
      );
    }
    return decrypt(key.key, named[2] ?? "", aad);
  }
  for (const candidate of [ring.current, ...ring.previous]) {
    try {
      return await decrypt(candidate.key, sealed, aad);
    } catch {
      // the next key, if any
    }
  }
  throw new Error(`A secret could not be decrypted for ${aad} (wrong key, tampered or moved).`);
}

/** Whether a sealed value is under the current key already (a reseal leaves it alone). */
export function sealedWithCurrent(ring: Keyring, sealed: string): boolean {
  return SEALED.exec(sealed)?.[1] === ring.current.id;
}

/** The value sealed again under the current key, or null when it already is. @throws as openSecret */
export async function resealSecret(
  ring: Keyring,
  sealed: string,
  aad: string,
): Promise<string | null> {
  if (sealedWithCurrent(ring, sealed)) return null;
  return sealSecret(ring, await openSecret(ring, sealed, aad), aad);
}

async function decrypt(key: CryptoKey, base64: string, aad: string): Promise<string> {
  try {
    const bytes = base64ToBytes(base64);
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

/**
 * Sealing with the Worker's keys bound once (docs/security.md#secrets-at-rest): what a store of
 * sealed values holds. Each call takes the isolate's cached keyring. @throws as keyring, openSecret
 */
export class KeyedBox {
  /** @param keys the Worker's sealing keys (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`) */
  constructor(private readonly keys: KeyConfig) {}

  /** The keyring, to fail early when SECRETS_KEY is unusable. */
  ring(): Promise<Keyring> {
    return keyring(this.keys);
  }

  /** `plaintext` sealed under the current key, bound to `aad`. */
  async seal(plaintext: string, aad: string): Promise<string> {
    return sealSecret(await this.ring(), plaintext, aad);
  }

  /** The plaintext of a value sealed with `aad` under any configured key. */
  async open(sealed: string, aad: string): Promise<string> {
    return openSecret(await this.ring(), sealed, aad);
  }

  /** The value sealed again under the current key, or null when it already is. */
  async reseal(sealed: string, aad: string): Promise<string | null> {
    return resealSecret(await this.ring(), sealed, aad);
  }
}
