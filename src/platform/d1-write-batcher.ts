/**
 * Group commit for D1 (docs/architecture.md#storage): while one write is in flight, later writes
 * queue up and go out together as one `batch` (a single round trip and transaction), scheduled by
 * the shared `GroupCommit`. A single writer, such as a Durable Object, thus pays one D1 round trip
 * per burst instead of one per write. If a batch fails, its writes are retried one by one, so only
 * the write that fails on its own is rejected.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { GroupCommit } from "./group-commit";

type Pending = {
  query: BatchItem<"sqlite">;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
};

/** Group commit of D1 writes: `run` resolves with the write's own result, written with its group. */
export class D1WriteBatcher {
  private queue: Pending[] = [];
  private readonly commit = new GroupCommit(() => this.flush());
  /** Round trips made so far (batches and single writes), for tests and metrics. */
  roundTrips = 0;

  constructor(
    private readonly db: DrizzleD1Database,
    private readonly maxBatch = 100,
  ) {}

  /** Runs the write in the next group; resolves with its own D1 result. */
  run<T = D1Result>(query: BatchItem<"sqlite">): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ query, resolve: resolve as (result: unknown) => void, reject });
      // Each write settles through its own resolve/reject; the group's outcome adds nothing.
      void this.commit.request(0);
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxBatch);
      try {
        this.roundTrips++;
        const queries = group.map((item) => item.query) as [
          BatchItem<"sqlite">,
          ...BatchItem<"sqlite">[],
        ];
        const results = group.length === 1 ? [await queries[0]] : await this.db.batch(queries);
        for (const [index, item] of group.entries()) item.resolve(results[index]);
      } catch (error) {
        if (group.length === 1) {
          group[0]?.reject(error);
          continue;
        }
        for (const item of group) {
          this.roundTrips++;
          await Promise.resolve(item.query).then(item.resolve, item.reject);
        }
      }
    }
  }
}
