/**
 * Held lastNode and responseNode callers, in memory until answered or their deadline; after a
 * restart the Worker re-attaches (docs/api/webhooks.md).
 */

/** What a held caller is finally told. */
export type HeldOutcome<T> = T | { kind: "timeout"; executionId: string };

/** One held caller: answered once (`answered` set), by its execution or its deadline. */
type Caller<T> = {
  executionId: string;
  deadline: number;
  answer: (outcome: HeldOutcome<T>) => void;
  answered: boolean;
};

/**
 * Callers of one wait, in the order they came: their deadlines are in that order too, so one
 * timer, set for the oldest still held, serves them all (a timer per caller cost a lastNode call
 * more than its own bookkeeping). Answered callers leave from the front as they are passed.
 */
type Line<T> = {
  callers: Caller<T>[];
  head: number;
  /** Callers not answered yet: at none, the line and its timer go (no timer keeps the object up). */
  held: number;
  timer?: ReturnType<typeof setTimeout>;
};

/** Callers waiting for their execution, each answered once: its outcome or a timeout. */
export class HeldCallers<T> {
  private readonly callers = new Map<string, Set<Caller<T>>>();
  /** Lines by wait (ms): every node's callers wait as long as each other. */
  private readonly lines = new Map<number, Line<T>>();

  /** Resolves with the execution's outcome, or with `timeout` after `timeoutMs`. */
  wait(executionId: string, timeoutMs: number): Promise<HeldOutcome<T>> {
    return new Promise((resolve) => {
      const waiting = this.callers.get(executionId) ?? new Set();
      this.callers.set(executionId, waiting);
      let line = this.lines.get(timeoutMs);
      if (!line) {
        line = { callers: [], head: 0, held: 0 };
        this.lines.set(timeoutMs, line);
      }
      const within = line;
      const last = within.callers[within.callers.length - 1]?.deadline ?? 0;
      const caller: Caller<T> = {
        executionId,
        // Never before one already in line (a clock stepping back): its place is its deadline's.
        deadline: Math.max(Date.now() + timeoutMs, last),
        answered: false,
        answer: (outcome) => {
          caller.answered = true;
          waiting.delete(caller);
          if (waiting.size === 0) this.callers.delete(executionId);
          if (--within.held === 0) this.close(timeoutMs, within);
          resolve(outcome);
        },
      };
      waiting.add(caller);
      within.callers.push(caller);
      within.held++;
      this.passAnswered(within);
      within.timer ??= this.arm(timeoutMs, within);
    });
  }

  /** Whether anyone waits for the execution (so the outcome is worth building). */
  has(executionId: string): boolean {
    return this.callers.has(executionId);
  }

  /** Answers every caller of the execution. */
  settle(executionId: string, outcome: T): void {
    for (const caller of [...(this.callers.get(executionId) ?? [])]) caller.answer(outcome);
  }

  /** How many callers are held (for tests and metrics). */
  get size(): number {
    let total = 0;
    for (const waiting of this.callers.values()) total += waiting.size;
    return total;
  }

  /** Nothing held in the line: its timer is cleared and the line forgotten. */
  private close(timeoutMs: number, line: Line<T>): void {
    if (line.timer !== undefined) clearTimeout(line.timer);
    line.timer = undefined;
    if (this.lines.get(timeoutMs) === line) this.lines.delete(timeoutMs);
  }

  /** Drops answered callers from the front of the line; compacts it once half of it is passed. */
  private passAnswered(line: Line<T>): void {
    const { callers } = line;
    while (line.head < callers.length && callers[line.head]?.answered) line.head++;
    if (line.head > 64 && line.head * 2 > callers.length) {
      callers.splice(0, line.head);
      line.head = 0;
    }
  }

  /** A timer for the oldest caller still held in the line, or none when the line is empty. */
  private arm(timeoutMs: number, line: Line<T>): ReturnType<typeof setTimeout> | undefined {
    const first = line.callers[line.head];
    if (!first || this.lines.get(timeoutMs) !== line) return undefined;
    return setTimeout(() => this.expire(timeoutMs, line), Math.max(0, first.deadline - Date.now()));
  }

  /** Answers `timeout` to every caller whose deadline came, then waits for the next one. */
  private expire(timeoutMs: number, line: Line<T>): void {
    line.timer = undefined;
    const now = Date.now();
    const { callers } = line;
    // Bounded by the line's length; stops at the first caller whose deadline is still ahead.
    while (line.head < callers.length) {
      const caller = callers[line.head] as Caller<T>;
      if (!caller.answered) {
        if (caller.deadline > now) break;
        caller.answer({ kind: "timeout", executionId: caller.executionId });
      }
      line.head++;
    }
    this.passAnswered(line);
    line.timer = this.arm(timeoutMs, line);
  }
}
