import { describe, expect, it } from "vitest";
import {
  constantTimeEqual,
  crc32,
  generateChecksummedSecret,
  hasValidChecksum,
  randomBase62,
  randomBase64Url,
  sha256Hex,
} from "../../src/platform/crypto";
import { newId } from "../../src/platform/ids";

describe("crypto helpers", () => {
  it("generates widget keys as wk_live_ + 32 base62 + 6-char checksum", () => {
    const key = generateChecksummedSecret("wk_live_");
    expect(key).toMatch(/^wk_live_[0-9A-Za-z]{38}$/);
    expect(hasValidChecksum(key, "wk_live_")).toBe(true);
  });

  it("rejects a key with one character changed, a wrong prefix or a wrong length", () => {
    const key = generateChecksummedSecret("wk_live_");
    const last = key.at(-1) === "A" ? "B" : "A";
    expect(hasValidChecksum(key.slice(0, -1) + last, "wk_live_")).toBe(false);
    const body = key.at(10) === "A" ? "B" : "A";
    expect(hasValidChecksum(key.slice(0, 10) + body + key.slice(11), "wk_live_")).toBe(false);
    expect(hasValidChecksum(key.replace("wk_live_", "mt_"), "wk_live_")).toBe(false);
    expect(hasValidChecksum(`${key}0`, "wk_live_")).toBe(false);
  });

  it("computes the standard CRC-32 and SHA-256", async () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(await sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("makes 32-byte base64url link tokens and unguessable prefixed ids", () => {
    const token = randomBase64Url(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomBase64Url(32)).not.toBe(token);
    expect(newId("lnk")).toMatch(/^lnk_[0-9A-Za-z]{22}$/);
  });

  it("draws base62 evenly and never twice the same, across refills of its random pool", () => {
    // 62,000 characters take about 64,000 bytes: the 4,096-byte pool refills about 16 times.
    const ids = Array.from({ length: 2_000 }, () => randomBase62(31));
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const char of ids.join("")) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1,000 expected each; a biased or repeating draw strays far past these bounds.
    for (const count of counts.values()) expect(count).toBeGreaterThan(820);
    for (const count of counts.values()) expect(count).toBeLessThan(1_180);
  });

  it("compares secrets by content, whatever their lengths", () => {
    expect(constantTimeEqual("secret", "secret")).toBe(true);
    expect(constantTimeEqual("secret", "secreT")).toBe(false);
    expect(constantTimeEqual("secret", "secret-longer")).toBe(false);
  });
});
