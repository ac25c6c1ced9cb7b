import { describe, expect, it } from "vitest";
import { ExpiringSet } from "../../src/launch/ledger/expiring-set";

describe("ExpiringSet", () => {
  it("counts members until their expiry passes", () => {
    const set = new ExpiringSet();
    set.add("a", 100);
    set.add("b", 300);
    set.add("c", 200);
    expect(set.size(50)).toBe(3);
    expect(set.size(100)).toBe(2);
    expect(set.size(250)).toBe(1);
    expect(set.size(300)).toBe(0);
  });

  it("forgets deleted members and ignores their stale expiry", () => {
    const set = new ExpiringSet();
    set.add("a", 100);
    expect(set.delete("a")).toBe(true);
    expect(set.delete("a")).toBe(false);
    set.add("a", 500);
    expect(set.size(200)).toBe(1);
    expect(set.size(500)).toBe(0);
  });

  it("stays correct over many random operations", () => {
    const set = new ExpiringSet();
    const model = new Map<string, number>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let step = 0; step < 20_000; step++) {
      const id = `id${Math.floor(random() * 3000)}`;
      const now = step;
      if (random() < 0.6) {
        const expiresAt = now + Math.floor(random() * 5000);
        set.add(id, expiresAt);
        model.set(id, expiresAt);
      } else {
        set.delete(id);
        model.delete(id);
      }
      if (step % 97 === 0) {
        const expected = [...model.values()].filter((expiresAt) => expiresAt > now).length;
        expect(set.size(now)).toBe(expected);
        for (const [key, expiresAt] of model) if (expiresAt <= now) model.delete(key);
      }
    }
  });
});
