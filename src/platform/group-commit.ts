/**
 * Group commit, the service's one "answer first, write within the window" writer
 * (docs/architecture.md#storage): the owner keeps what is pending and calls `request(ms)`.
 */
type Batch = {
  done: Promise<void>;
  settle: (written: Promise<void>) => void;
  /** When it is due, epoch ms. */
  at: number;
  timer: ReturnType<typeof setTimeout> | undefined;
};

/** Schedules its owner's `write` so that pending changes go out together, one write at a time. */
export class GroupCommit {
  private next: Batch | undefined;
  private inFlight: Promise<void> | undefined;

  /** @param write writes everything pending when it is called; may throw (the waiters reject) */
  constructor(private readonly write: () => Promise<void>) {}

  /** Has what is pending written within `ms` (0: after the write in flight); settles with that write. */
  request(ms = 0): Promise<void> {
    const at = Date.now() + ms;
    let batch = this.next;
    if (!batch) {
      let settle: (written: Promise<void>) => void = () => {};
      const done = new Promise<void>((resolve) => {
        settle = resolve;
      });
      batch = { done, settle, at: Number.POSITIVE_INFINITY, timer: undefined };
      this.next = batch;
    }
    if (at < batch.at) {
      // Due sooner than planned: one write, earlier.
      const due = batch;
      if (due.timer !== undefined) clearTimeout(due.timer);
      due.at = at;
      if (ms <= 0) {
        due.timer = undefined;
        queueMicrotask(() => this.start(due));
      } else {
        due.timer = setTimeout(() => this.start(due), ms);
      }
    }
    return batch.done;
  }

  private start(batch: Batch): void {
    if (this.next !== batch) return; // started already by an earlier timer or microtask
    if (this.inFlight) {
      // One write at a time: this batch goes when the current one is done.
      void this.inFlight.then(() => this.start(batch));
      return;
    }
    this.next = undefined;
    if (batch.timer !== undefined) clearTimeout(batch.timer);
    const written = this.write();
    const flight = written.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight = flight;
    // Registered first, so it runs before any batch that waits for this write starts.
    void flight.then(() => {
      if (this.inFlight === flight) this.inFlight = undefined;
    });
    batch.settle(written);
  }
}
