import { describe, expect, it } from "vitest";
import { importSecretsKey, openSecret, sealSecret, secretAad } from "../../src/platform/secret-box";

/** base64 of `length` bytes counting up from 1. */
function keyOf(length: number): string {
  return btoa(String.fromCharCode(...Array.from({ length }, (_, i) => i + 1)));
}

describe("secret box (docs/security.md)", () => {
  it("seals with a fresh iv and opens back to the plaintext", async () => {
    const key = await importSecretsKey(keyOf(32));
    const aad = secretAad("ws_a", "API_TOKEN");
    const first = await sealSecret(key, "sk_live_ünïcode 🔑", aad);
    const second = await sealSecret(key, "sk_live_ünïcode 🔑", aad);
    expect(first).not.toBe(second);
    expect(first).not.toContain("sk_live");
    // 12-byte iv + ciphertext (as long as the UTF-8 plaintext) + 16-byte tag.
    const plainBytes = new TextEncoder().encode("sk_live_ünïcode 🔑").byteLength;
    expect(atob(first).length).toBe(12 + plainBytes + 16);
    expect(await openSecret(key, first, aad)).toBe("sk_live_ünïcode 🔑");
    expect(await openSecret(key, second, aad)).toBe("sk_live_ünïcode 🔑");
  });

  it("round-trips the empty string and a leading byte-order mark", async () => {
    const key = await importSecretsKey(keyOf(32));
    for (const value of ["", "\uFEFFbom", "x".repeat(16_384)]) {
      expect(await openSecret(key, await sealSecret(key, value, "ws/N"), "ws/N")).toBe(value);
    }
  });

  it("refuses another workspace or name (AAD), another key, and tampering", async () => {
    const key = await importSecretsKey(keyOf(32));
    const sealed = await sealSecret(key, "hunter2", secretAad("ws_a", "PASSWORD"));
    await expect(openSecret(key, sealed, secretAad("ws_b", "PASSWORD"))).rejects.toThrow(
      /could not be decrypted/,
    );
    await expect(openSecret(key, sealed, secretAad("ws_a", "OTHER"))).rejects.toThrow();
    const otherKey = await importSecretsKey(btoa("x".repeat(32)));
    await expect(openSecret(otherKey, sealed, secretAad("ws_a", "PASSWORD"))).rejects.toThrow();

    const bytes = Uint8Array.from(atob(sealed), (c) => c.charCodeAt(0));
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    const tampered = btoa(String.fromCharCode(...bytes));
    await expect(openSecret(key, tampered, secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
    await expect(openSecret(key, "AAAA", secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
    await expect(openSecret(key, "not base64!", secretAad("ws_a", "PASSWORD"))).rejects.toThrow();
  });

  it("refuses a missing, malformed or wrongly sized SECRETS_KEY", async () => {
    await expect(importSecretsKey(undefined)).rejects.toThrow(/SECRETS_KEY is not set/);
    await expect(importSecretsKey("")).rejects.toThrow(/SECRETS_KEY is not set/);
    await expect(importSecretsKey(keyOf(16))).rejects.toThrow(/16 bytes; it must be exactly 32/);
    await expect(importSecretsKey(keyOf(33))).rejects.toThrow(/33 bytes/);
    await expect(importSecretsKey("***")).rejects.toThrow(/not valid base64/);
  });

  it("caches the imported key per base64 string", async () => {
    const a = await importSecretsKey(keyOf(32));
    expect(await importSecretsKey(keyOf(32))).toBe(a);
    expect(a.extractable).toBe(false);
    expect(a.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
  });
});
