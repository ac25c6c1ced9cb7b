import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RateLimitStore } from "../../src/platform/rate-limit-store";

/** A fresh object to borrow the storage of; the store under test is built on it directly. */
function anyObject() {
  return env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());
}

/** Lets the store's grouped writes (a loop of put and sync) finish. */
async function settle(state: DurableObjectState): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  await state.storage.sync();
}

describe("RateLimitStore", () => {
  it("writes calls accepted together as one entry, and a new store counts every one of them", async () => {
    const stored = await runInDurableObject(anyObject(), async (_instance, state) => {
      const store = new RateLimitStore(state.storage, (promise) => state.waitUntil(promise));
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => store.attempt("key", 60, 60_000)),
      );
      expect(decisions.every((decision) => decision.allowed)).toBe(true);
      await store.attempt("other", 60, 60_000);
      await settle(state);

      // A restarted object builds its log from storage: 50 counted, 10 left of 60.
      const restarted = new RateLimitStore(state.storage, (promise) => state.waitUntil(promise));
      for (let i = 0; i < 10; i++) {
        expect((await restarted.attempt("key", 60, 60_000)).allowed).toBe(true);
      }
      const refused = await restarted.attempt("key", 60, 60_000);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      await settle(state);
      return state.storage.list<number[]>({ prefix: "rl/key/" });
    });
    const entries = [...stored.entries()];
    // Without grouping there would be one entry per call (60).
    expect(entries.length).toBeLessThan(20);
    expect(entries.flatMap(([, times]) => times)).toHaveLength(60);
    for (const [name, times] of entries) {
      // The name carries the entry's newest time, which pruning and loading rely on.
      expect(name.split("/")[2]).toBe(String(Math.max(...times)).padStart(15, "0"));
    }
  });

  it("does not count calls of an entry that fall outside the window", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const now = Date.now();
      const name = `rl/key/${String(now - 1_000).padStart(15, "0")}/0`;
      // One entry that straddles the window's start: two calls outside, one inside.
      await state.storage.put(name, [now - 90_000, now - 61_000, now - 1_000]);
      const store = new RateLimitStore(state.storage, (promise) => state.waitUntil(promise));
      expect(await store.attempt("key", 2, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.attempt("key", 2, 60_000)).allowed).toBe(false);
    });
  });
});
