/**
 * Delivery keys seen (docs/webhooks.md#deduplication), in the runner's SQLite, each naming the
 * execution it started; synchronous, so two calls never both claim one.
 */

/** A delivery's key, under the node (a node's own column for its signatures) it was sent to. */
export type DeliveryKey = [node: string, key: string];

/** Expired keys are swept once every this many claims. */
const SWEEP_EVERY = 256;

/** The runner's table of delivery keys. */
export class DedupeStore {
  private claims = 0;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS dedupe (node TEXT NOT NULL, key TEXT NOT NULL,
      execution_id TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (node, key));
      CREATE INDEX IF NOT EXISTS dedupe_expiry ON dedupe (expires_at);`);
  }

  /**
   * Claims every key of a call unless any is held (a replay may change one and keep the other).
   * @param now epoch ms; @param windowMs how long the claim holds
   * @returns the first execution's id for a repeated key, or null once this call holds them
   */
  claim(keys: readonly DeliveryKey[], executionId: string, now: number, windowMs: number) {
    for (const [node, key] of keys) {
      const [held] = this.sql
        .exec<{ execution_id: string; expires_at: number }>(
          "SELECT execution_id, expires_at FROM dedupe WHERE node = ? AND key = ?",
          node,
          key,
        )
        .toArray();
      if (held && held.expires_at > now) return held.execution_id;
    }
    for (const [node, key] of keys) {
      this.sql.exec(
        "INSERT OR REPLACE INTO dedupe (node, key, execution_id, expires_at) VALUES (?, ?, ?, ?)",
        node,
        key,
        executionId,
        now + windowMs,
      );
    }
    if (++this.claims % SWEEP_EVERY === 0) {
      this.sql.exec("DELETE FROM dedupe WHERE expires_at <= ?", now);
    }
    return null;
  }

  /** A call merged into another's execution (docs/webhooks.md#debounce): its keys name that one. */
  rebind(executionId: string, into: string): void {
    this.sql.exec("UPDATE dedupe SET execution_id = ? WHERE execution_id = ?", into, executionId);
  }

  /** Forgets the key an execution claimed, when the execution could not be started after all. */
  release(executionId: string): void {
    this.sql.exec("DELETE FROM dedupe WHERE execution_id = ?", executionId);
  }
}
