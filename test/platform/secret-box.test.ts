import { describe, expect, it } from "vitest";
import {
  keyring,
  openSecret,
  resealSecret,
  sealedWithCurrent,
  sealSecret,
  secretAad,
} from "../../src/platform/secret-box";

/** base64 of `length` bytes counting up from `from`. */
function keyOf(length: number, from = 1): string {
  return btoa(String.fromCharCode(...Array.from({ length }, (_, i) => (i + from) % 256)));
}
const ring = (current: string, previous?: string) =>
  keyring({ SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: previous });

/** A value as sealed before key ids: `base64(iv || ciphertext || tag)` under `base64Key`. */
async function legacySeal(base64Key: string, plaintext: string, aad: string): Promise<string> {
  const raw = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const encrypted = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad) },
      key,
      new TextEncoder().encode(plaintext),
    ),
  );
  return btoa(String.fromCharCode(...iv, ...encrypted));
}

describe("secret box (docs/security.md)", () => {
  it("seals with a fresh iv under a named key and opens back to the plaintext", async () => {
    const keys = await ring(keyOf(32));
    const aad = secretAad("ws_a", "API_TOKEN");
    const first = await sealSecret(keys, "sk_live_ünïcode 🔑", aad);
    const second = await sealSecret(keys, "sk_live_ünïcode 🔑", aad);
    expect(first).not.toBe(second);
    expect(first).not.toContain("sk_live");
    // `k1.<16 hex: the first 8 bytes of the key's SHA-256>.` then 12-byte iv + ciphertext + 16-byte tag.
    const [version, id, body] = first.split(".");
    expect(version).toBe("k1");
    expect(id).toBe(keys.current.id);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const plainBytes = new TextEncoder().encode("sk_live_ünïcode 🔑").byteLength;
    expect(atob(body as string).length).toBe(12 + plainBytes + 16);
    expect(await openSecret(keys, first, aad)).toBe("sk_live_ünïcode 🔑");
    expect(await openSecret(keys, second, aad)).toBe("sk_live_ünïcode 🔑");
  });

  it("round-trips the empty string and a leading byte-order mark", async () => {
    const keys = await ring(keyOf(32));
    for (const value of ["", "\uFEFFbom", "x".repeat(16_384)]) {
      expect(await openSecret(keys, await sealSecret(keys, value, "ws/N"), "ws/N")).toBe(value);
    }
  });

  it("refuses another workspace or name (AAD), another key, and tampering", async () => {
    const keys = await ring(keyOf(32));
    const sealed = await sealSecret(keys, "hunter2", secretAad("ws_a", "PASSWORD"));
    await expect(openSecret(keys, sealed, secretAad("ws_b", "PASSWORD"))).rejects.toThrow(
      /could not be decrypted/,
    );
    await expect(openSecret(keys, sealed, secretAad("ws_a", "OTHER"))).rejects.toThrow();
    const other = await ring(btoa("x".repeat(32)));
    await expect(openSecret(other, sealed, secretAad("ws_a", "PASSWORD"))).rejects.toThrow(
      /neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS/,
    );
    const [, id, body] = sealed.split(".");
    const bytes = Uint8Array.from(atob(body as string), (c) => c.charCodeAt(0));
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    const tampered = `k1.${id}.${btoa(String.fromCharCode(...bytes))}`;
    await expect(openSecret(keys, tampered, secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
    await expect(openSecret(keys, "AAAA", secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
    await expect(openSecret(keys, "not base64!", secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
  });

  it("opens with the key the value names during a rotation, and reseals under the new one", async () => {
    const [oldKey, newKey, olderKey] = [keyOf(32, 1), keyOf(32, 100), keyOf(32, 200)];
    const before = await ring(oldKey);
    const sealed = await sealSecret(before, "s3cr3t", "ws/A");
    // Step 1 of the runbook: the new key seals, the old one (and another) still open.
    const during = await ring(newKey, ` ${olderKey} ,${oldKey}`);
    expect(during.previous.map((key) => key.id)).toEqual([
      (await ring(olderKey)).current.id,
      before.current.id,
    ]);
    expect(await openSecret(during, sealed, "ws/A")).toBe("s3cr3t");
    expect(sealedWithCurrent(during, sealed)).toBe(false);
    const resealed = (await resealSecret(during, sealed, "ws/A")) as string;
    expect(resealed.split(".")[1]).toBe(during.current.id);
    expect(await resealSecret(during, resealed, "ws/A")).toBeNull();
    // The last step: the old key removed; what was resealed opens, what was not does not.
    const after = await ring(newKey);
    expect(await openSecret(after, resealed, "ws/A")).toBe("s3cr3t");
    await expect(openSecret(after, sealed, "ws/A")).rejects.toThrow(/SECRETS_KEY_PREVIOUS/);
  });

  it("opens a value sealed before key ids with whichever configured key sealed it", async () => {
    const [oldKey, newKey] = [keyOf(32, 1), keyOf(32, 100)];
    const legacy = await legacySeal(oldKey, "from before", "ws/B");
    expect(await openSecret(await ring(oldKey), legacy, "ws/B")).toBe("from before");
    const during = await ring(newKey, oldKey);
    expect(await openSecret(during, legacy, "ws/B")).toBe("from before");
    expect(sealedWithCurrent(during, legacy)).toBe(false);
    const resealed = await resealSecret(during, legacy, "ws/B");
    expect(await openSecret(await ring(newKey), resealed as string, "ws/B")).toBe("from before");
    await expect(openSecret(await ring(newKey), legacy, "ws/B")).rejects.toThrow(
      /could not be decrypted/,
    );
  });

  it("refuses a missing, malformed or wrongly sized key, naming the setting", async () => {
    await expect(ring(undefined as unknown as string)).rejects.toThrow(/SECRETS_KEY is not set/);
    await expect(ring("")).rejects.toThrow(/SECRETS_KEY is not set/);
    await expect(ring(keyOf(16))).rejects.toThrow(/16 bytes; it must be exactly 32/);
    await expect(ring(keyOf(33))).rejects.toThrow(/33 bytes/);
    await expect(ring("***")).rejects.toThrow(/not valid base64/);
    await expect(ring(keyOf(32), keyOf(31))).rejects.toThrow(
      /SECRETS_KEY_PREVIOUS decodes to 31 bytes/,
    );
  });

  it("caches the keyring per configuration; keys are not extractable", async () => {
    const a = await ring(keyOf(32));
    expect(await ring(keyOf(32))).toBe(a);
    expect(await ring(keyOf(32), keyOf(32, 7))).not.toBe(a);
    expect(a.current.key.extractable).toBe(false);
    expect(a.current.key.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
  });
});
