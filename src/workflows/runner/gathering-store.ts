/**
 * Gatherings in the runner's SQLite (docs/webhooks.md#debounce, docs/webhooks.md#batch): one row per
 * gathering (its execution id, key, times, due time) and its calls' data, sealed. Synchronous, so two
 * calls of one key never open two gatherings.
 */

/** How calls gather: the newest call wins (`debounce`) or every call is kept (`batch`). */
export type GatheringKind = "debounce" | "batch";

/** One gathering as stored; times in epoch ms. */
export type GatheringRow = {
  execution_id: string;
  workflow_id: string;
  node_key: string;
  key: string;
  kind: GatheringKind;
  first_at: number;
  last_at: number;
  due_at: number;
  calls: number;
  /** 1 while calls of its key join it; 0 once due (full, or its time came). */
  open: number;
  /** Failed attempts to start it (a workflow that could not be read). */
  attempts: number;
  /** Its calls' sealed data, in characters: a batch starts early past MAX_BATCH_CHARS. */
  bytes: number;
};

/** One call's data, sealed with the call's own id (the id it was sealed under, before its gathering was known). */
export type GatheredCall = { call_id: string; data: string };

/** The runner's gatherings and their calls. */
export class GatheringStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS gatherings (execution_id TEXT PRIMARY KEY,
      workflow_id TEXT NOT NULL, node_key TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
      first_at INTEGER NOT NULL, last_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
      calls INTEGER NOT NULL, open INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      bytes INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS gatherings_open ON gatherings (node_key, key, kind, open);
      CREATE INDEX IF NOT EXISTS gatherings_due ON gatherings (due_at);
      CREATE TABLE IF NOT EXISTS gathered_calls (execution_id TEXT NOT NULL, n INTEGER NOT NULL,
      call_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (execution_id, n));`);
  }

  /** The open gathering of a node's key, if any. */
  open(nodeKey: string, key: string, kind: GatheringKind): GatheringRow | undefined {
    return this.sql
      .exec<GatheringRow>(
        "SELECT * FROM gatherings WHERE node_key = ? AND key = ? AND kind = ? AND open = 1",
        nodeKey,
        key,
        kind,
      )
      .toArray()[0];
  }

  /** One gathering by its execution id, open or due. */
  get(executionId: string): GatheringRow | undefined {
    return this.sql
      .exec<GatheringRow>("SELECT * FROM gatherings WHERE execution_id = ?", executionId)
      .toArray()[0];
  }

  /** Gatherings newest first (by first call, then id), after the one `after` names. */
  page(limit: number, after?: string): GatheringRow[] {
    const from = after === undefined ? undefined : this.get(after);
    if (after !== undefined && !from) return [];
    const where = from ? "WHERE first_at < ? OR (first_at = ? AND execution_id < ?)" : "";
    const bound = from ? [from.first_at, from.first_at, from.execution_id] : [];
    return this.sql
      .exec<GatheringRow>(
        `SELECT * FROM gatherings ${where} ORDER BY first_at DESC, execution_id DESC LIMIT ?`,
        ...bound,
        limit,
      )
      .toArray();
  }

  /** How many gatherings wait, open or due (bounded by the receiver). */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM gatherings").one().n;
  }

  /** Opens a gathering with its first call. */
  create(row: Omit<GatheringRow, "attempts" | "bytes">, call: GatheredCall): void {
    this.sql.exec(
      `INSERT INTO gatherings (execution_id, workflow_id, node_key, key, kind, first_at, last_at,
        due_at, calls, open, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.execution_id,
      row.workflow_id,
      row.node_key,
      row.key,
      row.kind,
      row.first_at,
      row.last_at,
      row.due_at,
      row.calls,
      row.open,
      call.data.length,
    );
    this.putCall(row.execution_id, 0, call);
  }

  /**
   * Adds a call: as call `n` (a batch's next), or replacing call 0 (debounce: only the newest is
   * kept); with the gathering's new times and count.
   */
  join(
    executionId: string,
    n: number,
    call: GatheredCall,
    next: { lastAt: number; dueAt: number; calls: number; open: boolean },
  ): void {
    this.putCall(executionId, n, call);
    this.sql.exec(
      `UPDATE gatherings SET last_at = ?, due_at = ?, calls = ?, open = ?,
        bytes = CASE WHEN ? = 0 THEN ? ELSE bytes + ? END WHERE execution_id = ?`,
      next.lastAt,
      next.dueAt,
      next.calls,
      next.open ? 1 : 0,
      n,
      call.data.length,
      call.data.length,
      executionId,
    );
  }

  private putCall(executionId: string, n: number, call: GatheredCall): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO gathered_calls (execution_id, n, call_id, data) VALUES (?, ?, ?, ?)",
      executionId,
      n,
      call.call_id,
      call.data,
    );
  }

  /** Gatherings whose time came, soonest first (at most `limit`). */
  due(now: number, limit: number): GatheringRow[] {
    return this.sql
      .exec<GatheringRow>(
        "SELECT * FROM gatherings WHERE due_at <= ? ORDER BY due_at LIMIT ?",
        now,
        limit,
      )
      .toArray();
  }

  /** The soonest due time of any gathering, or null when none waits. */
  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT MIN(due_at) AS at FROM gatherings").one()
      .at;
  }

  /** A gathering's calls, in the order they came. */
  calls(executionId: string): GatheredCall[] {
    return this.sql
      .exec<GatheredCall>(
        "SELECT call_id, data FROM gathered_calls WHERE execution_id = ? ORDER BY n",
        executionId,
      )
      .toArray();
  }

  /** Every waiting call with its workflow (for erasure), at most `limit`. */
  everyCall(
    limit: number,
  ): (GatheredCall & { execution_id: string; n: number; workflow_id: string })[] {
    return this.sql
      .exec<GatheredCall & { execution_id: string; n: number; workflow_id: string }>(
        `SELECT c.execution_id, c.n, c.call_id, c.data, g.workflow_id FROM gathered_calls c
          JOIN gatherings g ON g.execution_id = c.execution_id LIMIT ?`,
        limit,
      )
      .toArray();
  }

  /** Replaces a call's sealed data if it is still `call.data`; whether it was. */
  replaceCall(call: GatheredCall & { execution_id: string; n: number }, data: string): boolean {
    const done = this.sql.exec(
      "UPDATE gathered_calls SET data = ? WHERE execution_id = ? AND n = ? AND data = ?",
      data,
      call.execution_id,
      call.n,
      call.data,
    );
    return done.rowsWritten > 0;
  }

  /** Drops one call; a gathering left with none is dropped too. */
  dropCall(executionId: string, n: number): void {
    this.sql.exec("DELETE FROM gathered_calls WHERE execution_id = ? AND n = ?", executionId, n);
    const left = this.sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM gathered_calls WHERE execution_id = ?",
        executionId,
      )
      .one().n;
    if (left === 0) this.delete(executionId);
  }

  /** Closes a gathering: calls of its key open a new one from now on. */
  close(executionId: string): void {
    this.sql.exec("UPDATE gatherings SET open = 0 WHERE execution_id = ?", executionId);
  }

  /** Tries a closed gathering again at `dueAt`, counting the failed attempt. */
  retry(executionId: string, dueAt: number): void {
    this.sql.exec(
      "UPDATE gatherings SET due_at = ?, attempts = attempts + 1 WHERE execution_id = ?",
      dueAt,
      executionId,
    );
  }

  /** Starts it later without counting a failure (the workflow's queue was full). */
  postpone(executionId: string, dueAt: number): void {
    this.sql.exec("UPDATE gatherings SET due_at = ? WHERE execution_id = ?", dueAt, executionId);
  }

  /** Forgets a gathering and its calls (started, or given up). */
  delete(executionId: string): void {
    this.sql.exec("DELETE FROM gathered_calls WHERE execution_id = ?", executionId);
    this.sql.exec("DELETE FROM gatherings WHERE execution_id = ?", executionId);
  }
}
