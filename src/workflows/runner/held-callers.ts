/**
 * Held lastNode and responseNode callers, in memory until answered or their deadline; after a
 * restart the Worker re-attaches (docs/api/webhooks.md).
 */

/** What a held caller is finally told. */
export type HeldOutcome<T> = T | { kind: "timeout"; executionId: string };

/** Callers waiting for their execution, each answered once: its outcome or a timeout. */
export class HeldCallers<T> {
  private readonly callers = new Map<string, Set<(outcome: HeldOutcome<T>) => void>>();

  /**
   * Resolves with the execution's outcome, or with `timeout` after `timeoutMs`. The timer is set
   * once the current task is done, for what is left of the wait: most executions of a lastNode
   * call finish in the task that holds the caller, and a timer set and cleared for each of those
   * cost the call more than its own bookkeeping.
   */
  wait(executionId: string, timeoutMs: number): Promise<HeldOutcome<T>> {
    return new Promise((resolve) => {
      const waiting = this.callers.get(executionId) ?? new Set();
      this.callers.set(executionId, waiting);
      const deadline = Date.now() + timeoutMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let answered = false;
      const done = (outcome: HeldOutcome<T>) => {
        answered = true;
        if (timer !== undefined) clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0) this.callers.delete(executionId);
        resolve(outcome);
      };
      waiting.add(done);
      queueMicrotask(() => {
        if (answered) return;
        const left = Math.max(0, deadline - Date.now());
        timer = setTimeout(() => done({ kind: "timeout", executionId }), left);
      });
    });
  }

  /** Whether anyone waits for the execution (so the outcome is worth building). */
  has(executionId: string): boolean {
    return this.callers.has(executionId);
  }

  /** Answers every caller of the execution. */
  settle(executionId: string, outcome: T): void {
    for (const done of [...(this.callers.get(executionId) ?? [])]) done(outcome);
  }

  /** How many callers are held (for tests and metrics). */
  get size(): number {
    let total = 0;
    for (const waiting of this.callers.values()) total += waiting.size;
    return total;
  }
}
