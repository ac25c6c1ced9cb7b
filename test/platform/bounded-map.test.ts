/** The isolate's bounded caches (src/platform/bounded-map.ts): made once, kept, started over past the limit. */
import { describe, expect, it } from "vitest";
import { BoundedMap, mapOf } from "../../src/platform/bounded-map";

describe("BoundedMap", () => {
  it("makes a value once and keeps it, null included", () => {
    const map = new BoundedMap<string, string | null>(10);
    let made = 0;
    const make = (key: string) => {
      made++;
      return key === "none" ? null : key.toUpperCase();
    };
    expect(map.kept("a", make)).toBe("A");
    expect(map.kept("a", make)).toBe("A");
    expect(map.kept("none", make)).toBeNull();
    expect(map.kept("none", make)).toBeNull();
    expect(made).toBe(2);
  });

  it("forgets everything before taking a new key once full; a kept key's update does not", () => {
    const map = new BoundedMap<number, number>(3);
    for (const n of [1, 2, 3]) map.set(n, n);
    map.set(2, 20);
    expect([...map.keys()]).toEqual([1, 2, 3]);
    map.set(4, 4);
    expect([...map.entries()]).toEqual([[4, 4]]);
  });

  it("mapOf gives each owner one map of its own", () => {
    const maps = new WeakMap<object, BoundedMap<string, number>>();
    const [a, b] = [{}, {}];
    mapOf(maps, a).set("x", 1);
    expect(mapOf(maps, a).get("x")).toBe(1);
    expect(mapOf(maps, b).has("x")).toBe(false);
    expect(mapOf(maps, b, 1)).toBe(maps.get(b));
  });
});
