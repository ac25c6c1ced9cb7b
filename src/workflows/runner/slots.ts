/**
 * A workflow's concurrency slots (docs/webhooks.md#concurrency), first in first out; synchronous,
 * so no two calls take the last slot and none overtakes a waiting one.
 */
import type { WorkflowConcurrency } from "../nodes/types";

/** The Retry-After of a 429 queue_full (s): a guess at how soon a place frees up. */
export const QUEUE_FULL_RETRY_SECONDS = 5;

/** What becomes of a new execution. */
export type Admission = "run" | "queue" | "full";

/** Running and waiting executions of one workflow, in memory (rebuilt from the store on start). */
export class Slots {
  private readonly running = new Set<string>();
  private readonly waiting: string[] = [];
  /** The limit in force: the workflow's current one (undefined: no limit). */
  private limit: WorkflowConcurrency | undefined;

  /** Restores the sets after a restart, under the workflow's current `limit`. */
  load(running: string[], waiting: string[], limit: WorkflowConcurrency | undefined): void {
    for (const id of running) this.running.add(id);
    this.waiting.push(...waiting);
    this.limit = limit;
  }

  /** Sets the limit in force: the workflow's current definition's, never an older one's. */
  setLimit(limit: WorkflowConcurrency | undefined): void {
    this.limit = limit;
  }

  /** What `admit` would decide now, without admitting anything. */
  decide(): Admission {
    const { limit } = this;
    const free = !limit || this.running.size < limit.limit;
    if (this.waiting.length === 0 && free) return "run";
    return limit && this.waiting.length >= limit.queueLimit ? "full" : "queue";
  }

  /** Admits a new execution under the limit in force: run it, queue it or refuse it. */
  admit(id: string): Admission {
    const admission = this.decide();
    if (admission === "run") this.running.add(id);
    else if (admission === "queue") this.waiting.push(id);
    return admission;
  }

  /** Forgets a queued execution that could not be recorded. */
  drop(id: string): void {
    const at = this.waiting.indexOf(id);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  /** Frees a finished execution's slot (`null`: none); returns waiting ones that fit now, as running. */
  release(id: string | null): string[] {
    if (id !== null) this.running.delete(id);
    const next: string[] = [];
    while (this.waiting.length > 0 && (!this.limit || this.running.size < this.limit.limit)) {
      const head = this.waiting.shift() as string;
      this.running.add(head);
      next.push(head);
    }
    return next;
  }

  /** How many executions wait. */
  get queued(): number {
    return this.waiting.length;
  }
}
