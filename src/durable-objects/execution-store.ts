/**
 * The Workflow-runner's execution records, in the object's SQLite storage (contract 5). One row per
 * execution: what is shown (node runs with secret values redacted) and, while the execution runs,
 * what is needed to continue it after a restart (definition snapshot and engine state). The raw
 * state is dropped when the execution finishes, so finished records hold only redacted data.
 */
import { redactedJson } from "../workflow/redact";
import type { ExecutionState, NodeRun, NodeType, WorkflowDefinition } from "../workflow/types";

/** An execution being run: the definition it started with and the engine's state. */
export type LiveExecution = {
  id: string;
  workflowId: string;
  triggerType: NodeType;
  definition: WorkflowDefinition;
  state: ExecutionState;
  startedAt: number;
};

/** What a running execution waits for, and when the runner must look at it again (epoch ms). */
export type Wake = { step: "fetch" | "wait"; at: number };

/** A stored record, as shown by the executions API (times in epoch ms). */
export type ExecutionRecord = {
  id: string;
  workflowId: string;
  status: ExecutionState["status"];
  trigger: { key: string; type: string };
  nodes: NodeRun[];
  startedAt: number;
  finishedAt: number | null;
};

/** Finished executions kept per workflow; older ones are deleted (like n8n's execution pruning). */
export const MAX_FINISHED_EXECUTIONS = 10_000;
const PRUNE_EVERY = 256;

type Row = {
  seq: number;
  id: string;
  workflow_id: string;
  status: string;
  trigger_key: string;
  trigger_type: string;
  started_at: number;
  finished_at: number | null;
  nodes: string;
  live: string | null;
  step: string | null;
  wake_at: number | null;
};

type RowValues = [
  string,
  string,
  string,
  string,
  string,
  number,
  number | null,
  string,
  string | null,
  string | null,
  number | null,
];

export class ExecutionStore {
  private savedSincePrune = 0;
  private readonly unsaved = new Map<string, RowValues>();
  private flushing: Promise<void> | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS executions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      workflow_id TEXT NOT NULL,
      status TEXT NOT NULL,
      trigger_key TEXT NOT NULL,
      trigger_type TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      finished_at INTEGER,
      nodes TEXT NOT NULL,
      live TEXT,
      step TEXT,
      wake_at INTEGER
    )`);
    sql.exec(
      "CREATE INDEX IF NOT EXISTS executions_wake ON executions (wake_at) WHERE live IS NOT NULL",
    );
  }

  /**
   * Records the execution as it is now (group commit): the row is built at once, so later changes
   * to the state do not leak into it, and written together with the rows of every other call that
   * saves before the next macrotask, in one implicit transaction. The promise settles once the rows
   * are written; replies sent after that wait for the commit (output gate), so an answered call is
   * durable and one commit serves many calls.
   * @param secretValues values replaced by `[redacted]` in what is shown
   * @param wake for a running execution, what it waits for; null once finished
   */
  save(execution: LiveExecution, secretValues: string[], wake: Wake | null): Promise<void> {
    const { state } = execution;
    const finished = state.status !== "running";
    this.unsaved.set(execution.id, [
      execution.id,
      execution.workflowId,
      state.status,
      state.triggerKey,
      execution.triggerType,
      execution.startedAt,
      finished ? lastFinishedAt(state.runs) : null,
      redactedJson(state.runs, secretValues),
      finished ? null : JSON.stringify({ definition: execution.definition, state }),
      finished ? null : (wake?.step ?? null),
      finished ? null : (wake?.at ?? null),
    ]);
    this.flushing ??= new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        this.flushing = undefined;
        try {
          this.flush();
          resolve();
        } catch (error) {
          reject(error);
        }
      }, 0);
    });
    return this.flushing;
  }

  /** Writes every saved row now; reads call it first, so they always see the latest save. */
  flush(): void {
    if (this.unsaved.size === 0) return;
    const rows = [...this.unsaved.values()];
    this.unsaved.clear();
    let finished = 0;
    for (const row of rows) {
      this.sql.exec(
        `INSERT INTO executions
           (id, workflow_id, status, trigger_key, trigger_type, started_at, finished_at, nodes, live, step, wake_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at,
           nodes = excluded.nodes, live = excluded.live, step = excluded.step, wake_at = excluded.wake_at`,
        ...row,
      );
      if (row[8] === null) finished++;
    }
    this.savedSincePrune += finished;
    if (this.savedSincePrune >= PRUNE_EVERY) {
      this.savedSincePrune = 0;
      this.prune();
    }
  }

  /** The record of one execution, or null. */
  get(id: string): ExecutionRecord | null {
    this.flush();
    const row = this.sql.exec<Row>("SELECT * FROM executions WHERE id = ?", id).toArray()[0];
    return row ? toRecord(row) : null;
  }

  /** Newest first; `startingAfter` (an execution id) pages on to older ones. */
  list(limit: number, startingAfter?: string): { data: ExecutionRecord[]; hasMore: boolean } {
    this.flush();
    const rows = startingAfter
      ? this.sql
          .exec<Row>(
            `SELECT * FROM executions WHERE seq < (SELECT seq FROM executions WHERE id = ?)
             ORDER BY seq DESC LIMIT ?`,
            startingAfter,
            limit + 1,
          )
          .toArray()
      : this.sql
          .exec<Row>("SELECT * FROM executions ORDER BY seq DESC LIMIT ?", limit + 1)
          .toArray();
    return { data: rows.slice(0, limit).map(toRecord), hasMore: rows.length > limit };
  }

  /** Running executions whose wake time has come, oldest first. */
  due(now: number, limit = 500): LiveExecution[] {
    this.flush();
    return this.sql
      .exec<Row>(
        `SELECT * FROM executions WHERE live IS NOT NULL AND wake_at <= ?
         ORDER BY wake_at LIMIT ?`,
        now,
        limit,
      )
      .toArray()
      .map(toLive);
  }

  /** The earliest wake time of a running execution, or null. */
  nextWake(): number | null {
    this.flush();
    const row = this.sql
      .exec<{ at: number | null }>(
        "SELECT min(wake_at) AS at FROM executions WHERE live IS NOT NULL",
      )
      .one();
    return row.at;
  }

  /**
   * Called when the object starts: a fetch that was in flight died with the previous instance, so
   * those executions are due at once (their http_request node runs again: at least once).
   * @returns how many executions were due
   */
  interruptFetches(now: number): number {
    this.flush();
    return this.sql.exec(
      "UPDATE executions SET wake_at = ? WHERE live IS NOT NULL AND step = 'fetch'",
      now,
    ).rowsWritten;
  }

  private prune(): void {
    this.sql.exec(
      `DELETE FROM executions WHERE live IS NULL AND seq <= (
         SELECT seq FROM executions WHERE live IS NULL ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      MAX_FINISHED_EXECUTIONS,
    );
  }
}

function lastFinishedAt(runs: NodeRun[]): number | null {
  let at: number | null = null;
  for (const run of runs)
    if (run.finishedAt !== null && (at === null || run.finishedAt > at)) at = run.finishedAt;
  return at;
}

function toRecord(row: Row): ExecutionRecord {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    status: row.status as ExecutionRecord["status"],
    trigger: { key: row.trigger_key, type: row.trigger_type },
    nodes: JSON.parse(row.nodes) as NodeRun[],
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

function toLive(row: Row): LiveExecution {
  const { definition, state } = JSON.parse(row.live ?? "null") as {
    definition: WorkflowDefinition;
    state: ExecutionState;
  };
  return {
    id: row.id,
    workflowId: row.workflow_id,
    triggerType: row.trigger_type as NodeType,
    definition,
    state,
    startedAt: row.started_at,
  };
}
