/**
 * The in-memory index of unfinished executions (docs/architecture.md#storage): key, seq, wake, queued
 * (docs/webhooks.md#concurrency); rebuilt from storage at start.
 */
import type { Wake } from "./execution-row";
import type { Flow } from "./flow-control";
import type { Admitted } from "./slots";

/** `flow`: what admission counts it under (docs/webhooks.md#flow-control); absent, nothing. */
type Entry = { seq: number; key: string; wake: Wake | null; queued: boolean; flow?: Flow };

/** Unfinished executions by id. */
export class LiveIndex {
  private readonly entries = new Map<string, Entry>();

  get(id: string): Entry | undefined {
    return this.entries.get(id);
  }

  set(id: string, entry: Entry): void {
    this.entries.set(id, entry);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }

  /** How many executions are unfinished, queued ones included. */
  get size(): number {
    return this.entries.size;
  }

  /** The record keys of executions whose wake time has come, soonest first, at most `limit`. */
  dueKeys(now: number, limit: number): string[] {
    return [...this.entries.values()]
      .filter(({ wake }) => wake !== null && wake.at <= now)
      .sort((a, b) => (a.wake?.at ?? 0) - (b.wake?.at ?? 0))
      .slice(0, limit)
      .map(({ key }) => key);
  }

  /** Every entry's wake now, by execution id; a save replaces the entry's wake with a new one. */
  wakes(): Map<string, Wake | null> {
    return new Map([...this.entries].map(([id, { wake }]) => [id, wake]));
  }

  /** The earliest wake time, or null. */
  nextWake(): number | null {
    let at: number | null = null;
    for (const { wake } of this.entries.values()) {
      if (wake && (at === null || wake.at < at)) at = wake.at;
    }
    return at;
  }

  /** Makes every fetch in flight due at `now` (they died with the previous instance); how many. */
  interruptFetches(now: number): number {
    let count = 0;
    for (const entry of this.entries.values()) {
      if (entry.wake?.step === "fetch") {
        entry.wake = { step: "fetch", at: now };
        count++;
      }
    }
    return count;
  }

  /** The started (not queued) executions, with their flow. */
  active(): Admitted[] {
    return [...this.entries]
      .filter(([, entry]) => !entry.queued)
      .map(([id, entry]) => ({ id, flow: entry.flow ?? {} }));
  }

  /** The queued executions with their flow, oldest first (FIFO). */
  queued(): Admitted[] {
    return [...this.entries]
      .filter(([, entry]) => entry.queued)
      .sort(([, a], [, b]) => a.seq - b.seq)
      .map(([id, entry]) => ({ id, flow: entry.flow ?? {} }));
  }
}
