/**
 * The rate-limit log's storage (docs/architecture.md#storage), seen from outside: calls accepted
 * together cost a few grouped writes, not one each, and a store started again on the same storage
 * (an evicted or restarted object) counts exactly the calls still inside the window.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RateLimitStore } from "../../src/platform/rate-limit-store";

afterEach(() => {
  vi.useRealTimers();
});

/** A fresh object to borrow the storage of; the store under test is built on it directly. */
function anyObject() {
  return env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());
}

/** The storage, with each `put` call counted. */
function countingPuts(storage: DurableObjectStorage) {
  const puts: number[] = [];
  const counted = new Proxy(storage, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (name !== "put") return typeof value === "function" ? value.bind(target) : value;
      return (entries: Record<string, unknown>, options?: DurableObjectPutOptions) => {
        puts.push(Object.keys(entries).length);
        return target.put(entries, options);
      };
    },
  });
  return { storage: counted, puts };
}

/** Lets the store's grouped writes finish. */
async function settle(state: DurableObjectState): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  await state.storage.sync();
}

const storeOn = (storage: DurableObjectStorage, state: DurableObjectState) =>
  new RateLimitStore(storage, (promise) => state.waitUntil(promise));

describe("RateLimitStore", () => {
  it("writes calls accepted together in a few puts, and a new store counts every one of them", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const { storage, puts } = countingPuts(state.storage);
      const store = storeOn(storage, state);
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => store.attempt("key", 60, 60_000)),
      );
      expect(decisions.every((decision) => decision.allowed)).toBe(true);
      await settle(state);
      // Without grouping there would be one put per call (50).
      expect(puts.length).toBeLessThanOrEqual(3);

      // A restarted object builds its log from storage: 50 counted, 10 left of 60.
      const restarted = storeOn(state.storage, state);
      for (let i = 0; i < 10; i++) {
        expect((await restarted.attempt("key", 60, 60_000)).allowed).toBe(true);
      }
      const refused = await restarted.attempt("key", 60, 60_000);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // Another key's log is its own.
      expect((await restarted.attempt("other", 60, 60_000)).remaining).toBe(59);
    });
  });

  it("writes calls accepted one after another within 10 ms in one put", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const { storage, puts } = countingPuts(state.storage);
      const store = storeOn(storage, state);
      // Separate turns, as separate requests to an object arrive: each call's turn ends before the
      // next one's starts, so only the batch window can put them in one write.
      for (let i = 0; i < 5; i++) {
        expect((await store.attempt("key", 60, 60_000)).allowed).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      await settle(state);
      // One put (two if a slow machine lets the window close midway); a put per call would be 5.
      expect(puts.length).toBeLessThanOrEqual(2);
    });
  });

  it("counts, after a restart, only the calls still inside the window", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const now = Date.now();
      const store = storeOn(state.storage, state);
      for (const ago of [90_000, 61_000, 1_000]) {
        vi.setSystemTime(now - ago);
        expect((await store.attempt("key", 10, 60_000)).allowed).toBe(true);
        await settle(state);
      }
      vi.setSystemTime(now);
      const restarted = storeOn(state.storage, state);
      // Two calls left the window; the one a second ago counts.
      expect(await restarted.attempt("key", 2, 60_000)).toMatchObject({
        allowed: true,
        remaining: 0,
      });
      expect((await restarted.attempt("key", 2, 60_000)).allowed).toBe(false);
    });
  });
});
