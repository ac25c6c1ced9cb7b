/**
 * Group commit for D1 (docs/architecture.md#storage): while one write is in flight, later writes
 * queue up and go out together as one `batch` (a single round trip and transaction), scheduled by
 * the shared `GroupCommit`. A single writer, such as a Durable Object, thus pays one D1 round trip
 * per burst instead of one per write. If a batch fails, its writes are retried one by one, so only
 * the write that fails on its own is rejected. A write is a Drizzle query or a D1 prepared
 * statement (for SQL Drizzle cannot batch, such as `INSERT … SELECT … RETURNING`); either way it
 * resolves with D1's own result.
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

  /**
   * Runs several statements as one write in the next group: in one transaction with each other
   * (and with the group), so they all commit or none does. Resolves with each statement's result.
   */
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
