import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newExecutionId } from "../../src/platform/ids";
import { advance, startExecution } from "../../src/workflows/engine/engine";
import {
  INLINE_INPUT_MAX_CHARS,
  type LiveExecution,
} from "../../src/workflows/runner/execution-row";
import { ExecutionStore, FINISHED_BATCH_MS } from "../../src/workflows/runner/execution-store";
import { define } from "../helpers/definitions";

/** A fresh object to borrow the storage of; the store under test is built on it directly. */
function anyObject() {
  return env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());
}

const immediate = define(
  [{ type: "webhook" }, { key: "ok", type: "set", fields: { n: "{{webhook_1.body.n}}" } }],
  [{ from: "webhook_1", to: "ok" }],
);

/** An execution of `immediate`: finished (its one stretch run) or just started. */
function execution(id: string, finished: boolean, n: string = id): LiveExecution {
  const now = Date.now();
  const output = { body: { n }, headers: {}, queryParams: {}, method: "POST" };
  const state = startExecution(immediate, "webhook_1", output, now);
  if (finished) advance(immediate, state, {}, now);
  return {
    id,
    workflowId: "wf_test",
    triggerType: "webhook",
    definition: immediate,
    state,
    definitionAt: 0,
    replayOf: null,
    mode: "production",
    queuedAt: null,
    startedAt: now,
    flow: {},
  };
}

/** The storage, with every `put` call's keys recorded. */
function countingPuts(storage: DurableObjectStorage): {
  storage: DurableObjectStorage;
  puts: string[][];
} {
  const puts: string[][] = [];
  const counted = new Proxy(storage, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (name !== "put") return typeof value === "function" ? value.bind(target) : value;
      return (entries: Record<string, unknown>, options?: DurableObjectPutOptions) => {
        puts.push(Object.keys(entries));
        return target.put(entries, options);
      };
    },
  });
  return { storage: counted, puts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ExecutionStore", () => {
  it("writes finished records saved within FINISHED_BATCH_MS in one put, and shows them before", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const { storage, puts } = countingPuts(state.storage);
      const store = new ExecutionStore(storage, env);
      const saved: Promise<void>[] = [];
      for (let i = 0; i < 5; i++) {
        saved.push(store.save(execution(`exe_${i}`, true), [], null));
        // Each save in a macrotask of its own, as concurrent webhook calls make them.
        await vi.advanceTimersByTimeAsync(1);
      }
      expect(puts).toHaveLength(0);
      // Not written yet, but already shown.
      expect((await store.get("exe_3"))?.status).toBe("succeeded");

      await vi.advanceTimersByTimeAsync(FINISHED_BATCH_MS);
      await Promise.all(saved);
      // One put for the five records.
      expect(puts).toHaveLength(1);
      const reread = new ExecutionStore(state.storage, env);
      await reread.load();
      const listed = await reread.list(10);
      expect(listed.data.map((record) => record.id)).toEqual([
        "exe_4",
        "exe_3",
        "exe_2",
        "exe_1",
        "exe_0",
      ]);
    });
  });

  it("writes a running record at the next macrotask, taking the waiting finished ones along", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const { storage, puts } = countingPuts(state.storage);
      const store = new ExecutionStore(storage, env);
      const finished = store.save(execution("exe_done", true), [], null);
      const running = store.save(execution("exe_running", false), [], {
        step: "wait",
        at: Date.now() + 60_000,
      });
      // The running record is what its caller waits for: no waiting out the finished window.
      await vi.advanceTimersByTimeAsync(0);
      await Promise.all([finished, running]);
      expect(puts).toHaveLength(2); // confirmed and unconfirmed writes go apart
      await vi.advanceTimersByTimeAsync(FINISHED_BATCH_MS * 2);
      expect(puts).toHaveLength(2); // and the window's own flush found nothing left
    });
  });

  it("lists right after a save without waiting out the window", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const store = new ExecutionStore(state.storage, env);
      void store.save(execution("exe_a", true), [], null);
      const listing = store.list(10);
      await vi.advanceTimersByTimeAsync(0);
      expect((await listing).data.map((record) => record.id)).toEqual(["exe_a"]);
    });
  });

  it("keeps a small call's input inside its record and a large one apart, both sealed", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const { storage, puts } = countingPuts(state.storage);
      const store = new ExecutionStore(storage, env);
      const small = "s3cret-small-value";
      const large = `s3cret-large-${"x".repeat(INLINE_INPUT_MAX_CHARS)}`;
      // A secret's value in the call is redacted in the record, so its input is kept for replays.
      await store.save(execution("exe_small", true, small), [small], null);
      await store.save(execution("exe_large", true, large), [large], null);
      // The small input costs no key of its own.
      expect(puts.flat().filter((key) => key.startsWith("r/"))).toEqual(["r/exe_large"]);
      const stored = JSON.stringify([...(await state.storage.list()).values()]);
      expect(stored).not.toContain(small);
      expect(stored).not.toContain("s3cret-large");

      const reread = new ExecutionStore(state.storage, env);
      await reread.load();
      for (const [id, value] of [
        ["exe_small", small],
        ["exe_large", large],
      ] as const) {
        const row = await reread.openedRow(id);
        expect(JSON.parse(row?.input ?? "null").body.n).toBe(value);
        expect(JSON.stringify((await reread.get(id))?.nodes)).toContain("[redacted]");
      }
    });
  });

  it("queues a call after a restart behind every queued one, also one keyed before a newer key", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const t = Date.now() - 60_000;
      /** A queued execution created at `at` (its key's time), as a call received then. */
      const queued = (at: number): LiveExecution => {
        const id = newExecutionId(at);
        return { ...execution(id, false), queuedAt: at, startedAt: at };
      };
      const store = new ExecutionStore(state.storage, env);
      // An event execution started at t+3 saved first; calls received at t and t+1 reach the
      // runner after it: higher seqs, older keys.
      const [event, first, second] = [queued(t + 3), queued(t), queued(t + 1)];
      for (const one of [event, first, second]) await store.save(one, [], null, true);
      await store.settle();

      const restarted = new ExecutionStore(state.storage, env);
      await restarted.load();
      const next = queued(Date.now());
      await restarted.save(next, [], null, true);
      expect(restarted.live.queued().map((entry) => entry.id)).toEqual([
        event.id,
        first.id,
        second.id,
        next.id,
      ]);
    });
  });
});
