/**
 * The capture store's armings (docs/webhooks.md#capture, docs/webhooks.md#test-runs): an arming
 * stored before test runs existed (no `run` column) still captures, as a plain one; `run` is kept;
 * a sample is found by id or as the newest.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CaptureStore } from "../../src/workflows/runner/capture-store";

/** A fresh object to borrow the SQLite of; the store under test is built on it directly. */
const anyObject = () => env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());

describe("the capture store", () => {
  it("reads an arming stored before `run` existed as a plain one, and keeps `run`", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const { sql } = state.storage;
      const now = Date.now();
      sql.exec(`CREATE TABLE capture_arms (node TEXT PRIMARY KEY,
        remaining INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
      sql.exec("INSERT INTO capture_arms VALUES ('old', 2, ?)", now + 60_000);
      const store = new CaptureStore(sql);
      expect(store.arming("old", now)).toEqual({
        remaining: 2,
        expiresAt: now + 60_000,
        run: false,
      });
      expect(store.capture("old", { n: 1 }, now)?.run).toBe(false);
      store.arm("new", 1, 60_000, now, true);
      expect(store.capture("new", { n: 2 }, now)).toMatchObject({ run: true });
      expect(store.capture("new", { n: 3 }, now)).toBeNull(); // used up
      // Built again on the same storage (a restart): nothing is added twice.
      const again = new CaptureStore(sql);
      const [first] = again.samples("old", now);
      expect(again.sample("old", now)?.output).toEqual({ n: 1 });
      expect(again.sample("old", now, first?.id)?.id).toBe(first?.id);
      expect(again.sample("old", now, "smp_999")).toBeNull();
      expect(again.sample("none", now)).toBeNull();
    });
  });
});
