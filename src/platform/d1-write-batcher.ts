/**
 * Group commit for D1 (docs/architecture.md#storage): writes queued while one is in flight go as one
 * `batch`; a failed batch is retried write by write, so only the failing write rejects. A write is
 * Drizzle or a prepared statement (SQL Drizzle cannot batch).
 */
import type { BatchItem } from "drizzle-orm/batch";
import { GroupCommit } from "./group-commit";

const isStatement = (query: Write): query is D1PreparedStatement =>
  typeof (query as Partial<D1PreparedStatement>).bind === "function";

/** One statement of a write. */
export type Write = BatchItem<"sqlite"> | D1PreparedStatement;

type Pending = {
  /** The statements of one write: they commit together or not at all. */
  queries: Write[];
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
};

/** Group commit of D1 writes: `run` resolves with the write's own result, written with its group. */
export class D1WriteBatcher {
  private queue: Pending[] = [];
  private readonly commit = new GroupCommit(() => this.flush());
  /** Round trips made so far (batches and single writes), for tests and metrics. */
  roundTrips = 0;

  /** @param d1 the D1 binding the writes go to */
  constructor(
    private readonly d1: D1Database,
    private readonly maxBatch = 100,
  ) {}

  /** Runs the write in the next group; resolves with its own D1 result. */
  async run<T = D1Result>(query: Write): Promise<T> {
    const [result] = await this.runAll([query]);
    return result as T;
  }

  /** Runs statements as one write in the next group, all or none; resolves with each result. */
  runAll(queries: [Write, ...Write[]]): Promise<D1Result[]> {
    return new Promise<D1Result[]>((resolve, reject) => {
      this.queue.push({ queries, resolve, reject });
      // Each write settles through its own resolve/reject; the group's outcome adds nothing.
      void this.commit.request(0);
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxBatch);
      try {
        this.roundTrips++;
        const results = await this.execute(group.flatMap((item) => item.queries));
        let offset = 0;
        for (const item of group) {
          item.resolve(results.slice(offset, offset + item.queries.length));
          offset += item.queries.length;
        }
      } catch (error) {
        if (group.length === 1) {
          group[0]?.reject(error);
          continue;
        }
        for (const item of group) {
          this.roundTrips++;
          await this.execute(item.queries).then(item.resolve, item.reject);
        }
      }
    }
  }

  private async execute(queries: Write[]): Promise<D1Result[]> {
    const statements = queries.map((query) => this.statement(query));
    const [first, ...rest] = statements;
    if (!first) return [];
    return rest.length === 0 ? [await first.run()] : this.d1.batch(statements);
  }

  private statement(query: Write): D1PreparedStatement {
    if (isStatement(query)) return query;
    const { sql, params } = (
      query as unknown as { toSQL(): { sql: string; params: unknown[] } }
    ).toSQL();
    return this.d1.prepare(sql).bind(...params);
  }
}
