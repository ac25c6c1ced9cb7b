/**
 * A workflow's admission (docs/webhooks.md#concurrency, docs/webhooks.md#flow-control): its
 * concurrency slots, per-key limits and throttles, with one queue, first in first out per key;
 * synchronous, so no two calls take the last slot and none overtakes a waiting one of its key.
 */
import type { WorkflowConcurrency } from "../nodes/types";
import type { Flow, ThrottleLog } from "./flow-control";

/** The Retry-After of a 429 queue_full (s): a guess at how soon a place frees up. */
export const QUEUE_FULL_RETRY_SECONDS = 5;

/** The queue's length where the workflow sets no `concurrency.queueLimit` (a throttle's queue). */
export const DEFAULT_QUEUE_LIMIT = 1_000;

/** What becomes of a new execution. */
export type Admission = "run" | "queue" | "full";

/** An execution admission knows of. */
export type Admitted = { id: string; flow: Flow };

const bump = (counts: Map<string, number>, key: string | undefined, by: number) => {
  if (key === undefined) return;
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
};

/**
 * Running and waiting executions of one workflow, in memory (rebuilt from the store on start).
 * After every change no waiting execution could start: each waits for the overall limit, its
 * key's limit, its throttle, or an earlier one of its key or bucket.
 */
export class Slots {
  private readonly running = new Map<string, Flow>();
  private readonly runningByKey = new Map<string, number>();
  private readonly waiting: Admitted[] = [];
  private readonly waitingByKey = new Map<string, number>();
  private readonly waitingByBucket = new Map<string, number>();
  /** The limit in force: the workflow's current one (undefined: no limit). */
  private limit: WorkflowConcurrency | undefined;

  constructor(private readonly throttles: ThrottleLog) {}

  /** Restores the sets after a restart, under the workflow's current `limit`. */
  load(running: Admitted[], waiting: Admitted[], limit: WorkflowConcurrency | undefined): void {
    for (const { id, flow } of running) {
      this.running.set(id, flow);
      bump(this.runningByKey, flow.key, 1);
    }
    for (const entry of waiting) this.enqueue(entry);
    this.limit = limit;
  }

  /** Sets the limit in force: the workflow's current definition's, never an older one's. */
  setLimit(limit: WorkflowConcurrency | undefined): void {
    this.limit = limit;
  }

  private overallFree(): boolean {
    return !this.limit || this.running.size < this.limit.limit;
  }

  /**
   * The key an execution counts under now: its own, while the workflow's current limit has a key
   * (removed, per-key limits end for the executions admitted under it too).
   */
  private keyOf(flow: Flow): string | undefined {
    return this.limit?.key === undefined ? undefined : flow.key;
  }

  /** Whether `flow`'s own limits let it start now (its key's and its throttle's). */
  private fits(flow: Flow, now: number): boolean {
    const key = this.keyOf(flow);
    const keyLimit = this.limit?.keyLimit ?? 1;
    if (key !== undefined && (this.runningByKey.get(key) ?? 0) >= keyLimit) return false;
    return !flow.throttle || this.throttles.allows(flow.throttle, now);
  }

  /** What `admit` would decide now, without admitting anything. */
  decide(flow: Flow, now = Date.now()): Admission {
    const key = this.keyOf(flow);
    const behind =
      (key !== undefined && this.waitingByKey.has(key)) ||
      (flow.throttle !== undefined && this.waitingByBucket.has(flow.throttle.bucket));
    if (this.overallFree() && !behind && this.fits(flow, now)) return "run";
    const queueLimit = this.limit?.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    return this.waiting.length >= queueLimit ? "full" : "queue";
  }

  /** Admits a new execution under the limits in force: run it, queue it or refuse it. */
  admit(id: string, flow: Flow, now = Date.now()): Admission {
    const admission = this.decide(flow, now);
    if (admission === "run") this.start({ id, flow }, now);
    else if (admission === "queue") this.enqueue({ id, flow });
    return admission;
  }

  private start({ id, flow }: Admitted, now: number): void {
    this.running.set(id, flow);
    bump(this.runningByKey, flow.key, 1);
    if (flow.throttle) this.throttles.add(flow.throttle, now);
  }

  private enqueue(entry: Admitted): void {
    this.waiting.push(entry);
    bump(this.waitingByKey, entry.flow.key, 1);
    bump(this.waitingByBucket, entry.flow.throttle?.bucket, 1);
  }

  private dequeue(at: number): Admitted {
    const [entry] = this.waiting.splice(at, 1) as [Admitted];
    bump(this.waitingByKey, entry.flow.key, -1);
    bump(this.waitingByBucket, entry.flow.throttle?.bucket, -1);
    return entry;
  }

  /** Forgets a queued execution that could not be recorded. */
  drop(id: string): void {
    const at = this.waiting.findIndex((entry) => entry.id === id);
    if (at >= 0) this.dequeue(at);
  }

  /**
   * Frees a finished execution's slot (`null`: none, a limit changed or a throttle's period
   * passed); returns the waiting ones that may start now, in queue order, as running. One that
   * cannot start holds back the later ones of its key and bucket, not the others.
   */
  release(id: string | null, now = Date.now()): string[] {
    const flow = id === null ? undefined : this.running.get(id);
    if (id !== null && this.running.delete(id)) bump(this.runningByKey, flow?.key, -1);
    const next: string[] = [];
    const heldKeys = new Set<string>();
    const heldBuckets = new Set<string>();
    for (let at = 0; at < this.waiting.length && this.overallFree(); ) {
      const { flow: waiting } = this.waiting[at] as Admitted;
      const key = this.keyOf(waiting);
      const bucket = waiting.throttle?.bucket;
      const held =
        (key !== undefined && heldKeys.has(key)) ||
        (bucket !== undefined && heldBuckets.has(bucket)) ||
        !this.fits(waiting, now);
      if (held) {
        if (key !== undefined) heldKeys.add(key);
        if (bucket !== undefined) heldBuckets.add(bucket);
        at++;
        continue;
      }
      const entry = this.dequeue(at);
      this.start(entry, now);
      next.push(entry.id);
    }
    return next;
  }

  /** When a waiting execution's throttle next has room (epoch ms), or null. */
  nextWake(now = Date.now()): number | null {
    let soonest: number | null = null;
    const seen = new Set<string>();
    for (const { flow } of this.waiting) {
      // Each bucket once: a long queue of one key costs one look at its window.
      if (!flow.throttle || seen.has(flow.throttle.bucket)) continue;
      seen.add(flow.throttle.bucket);
      const at = this.throttles.freesAt(flow.throttle, now);
      if (at !== null && (soonest === null || at < soonest)) soonest = at;
    }
    return soonest;
  }

  /** How many executions wait. */
  get queued(): number {
    return this.waiting.length;
  }
}
