/**
 * The synchronous SHA-256 of the widget key's check (src/platform/sha256-sync.ts) against the
 * runtime's `crypto.subtle.digest`: every length across the padding's block boundaries, keys as
 * they are made, and text beyond ASCII.
 */
import { describe, expect, it } from "vitest";
import { randomBase62, sha256Hex } from "../../src/platform/crypto";
import { sha256HexSync } from "../../src/platform/sha256-sync";

describe("sha256HexSync", () => {
  it("is FIPS 180-4's SHA-256 (its test vectors)", () => {
    expect(sha256HexSync("")).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(sha256HexSync("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(sha256HexSync("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("gives what crypto.subtle.digest gives, for every length up to four blocks", async () => {
    for (let length = 0; length <= 260; length++) {
      const text = randomBase62(length);
      expect(sha256HexSync(text)).toBe(await sha256Hex(text));
    }
  });

  it("hashes the UTF-8 bytes of text beyond ASCII", async () => {
    for (const text of ["é", "wk_live_✓", "𝄞".repeat(20), `${"a".repeat(55)}é`]) {
      expect(sha256HexSync(text)).toBe(await sha256Hex(text));
    }
  });
});
