/**
 * An idempotent create interrupted between its record and its link's write
 * (docs/api/launch.md#idempotent-requests): the next call with the key, in a ledger started
 * again, replays the answer when the link reached D1 and runs afresh when it did not. The ledger's
 * restart is a new `IdempotencyKeys` on the same SQLite storage (what survives a restart).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CreateOutcome, LedgerResult } from "../../src/launch/ledger/contract";
import { createIdempotently, IdempotencyKeys } from "../../src/launch/ledger/idempotency";

const request = { key: "order-1", bodyHash: "h1", sealedAnswer: "sealed-first" };

/** Runs `check` on the SQLite storage of a fresh ledger object. */
function onFreshStorage(check: (sql: SqlStorage) => Promise<void>): Promise<void> {
  const stub = env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());
  return runInDurableObject(stub, (_instance, state) => check(state.storage.sql));
}

/** A create whose write never returns: the object "dies" after recording the key. */
async function interrupted(keys: IdempotencyKeys): Promise<void> {
  void createIdempotently(keys, "wk_1", request, {
    linkId: "lnk_first",
    written: async () => false,
    create: (beforeWrite) => {
      beforeWrite();
      return new Promise<LedgerResult<CreateOutcome>>(() => {});
    },
  });
  await Promise.resolve();
}

describe("an idempotent create interrupted by a restart", () => {
  it("replays the first answer when its link reached D1", async () => {
    await onFreshStorage(async (sql) => {
      await interrupted(new IdempotencyKeys(sql, env));
      let created = 0;
      const result = await createIdempotently(new IdempotencyKeys(sql, env), "wk_1", request, {
        linkId: "lnk_second",
        written: async (linkId) => linkId === "lnk_first",
        create: async () => {
          created++;
          return { ok: true, value: { replayed: false } };
        },
      });
      expect(result).toEqual({ ok: true, value: { replayed: true, sealedAnswer: "sealed-first" } });
      expect(created).toBe(0);
    });
  });

  it("runs afresh when its link never reached D1, and replays that answer afterwards", async () => {
    await onFreshStorage(async (sql) => {
      await interrupted(new IdempotencyKeys(sql, env));
      const keys = new IdempotencyKeys(sql, env);
      const second = { ...request, sealedAnswer: "sealed-second" };
      const result = await createIdempotently(keys, "wk_1", second, {
        linkId: "lnk_second",
        written: async () => false,
        create: async (beforeWrite) => {
          beforeWrite();
          return { ok: true, value: { replayed: false } };
        },
      });
      expect(result).toEqual({ ok: true, value: { replayed: false } });
      expect(keys.claim("wk_1", second, Date.now())).toEqual({
        kind: "replay",
        sealedAnswer: "sealed-second",
      });
    });
  });

  it("while the first call runs, refuses the key as in use; another body as reused", async () => {
    await onFreshStorage(async (sql) => {
      const keys = new IdempotencyKeys(sql, env);
      await interrupted(keys);
      expect(keys.claim("wk_1", request, Date.now()).kind).toBe("in_use");
      // In use wins over a different body while the first call runs, as Stripe answers it.
      expect(keys.claim("wk_1", { ...request, bodyHash: "h2" }, Date.now()).kind).toBe("in_use");
      const restarted = new IdempotencyKeys(sql, env);
      expect(restarted.claim("wk_1", { ...request, bodyHash: "h2" }, Date.now()).kind).toBe(
        "reused",
      );
    });
  });
});
