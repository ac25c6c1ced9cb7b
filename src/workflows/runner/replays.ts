/**
 * Replays (docs/webhooks.md#replay) on the `original` or `current` definition; bulk replays queue
 * in the runner's SQLite and start one after another, surviving restarts.
 */

import { newExecutionId } from "../../platform/ids";
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { WorkflowDefinition } from "../nodes/types";
import type { ExecutionMode, ExecutionRecord, ReplayMode, ReplayResult } from "./contract";
import { toLive, toRecord } from "./execution-row";
import type { Executor } from "./executor";
import { idOnShard, shardOfId } from "./shards";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import type { WorkflowSource } from "./workflow-source";

/** Bulk replays take at most this many executions per request, oldest first. */
export const MAX_BULK_REPLAYS = 1_000;
const SCAN_PAGE = 500;
/** While bulk replays are queued, the alarm looks at them at least this often (ms). */
const REPLAY_WATCH_MS = 30_000;

/** The runner's replays. */
export class Replays {
  private draining: Promise<void> | null = null;

  constructor(
    private readonly source: WorkflowSource,
    private readonly executor: Executor,
    private readonly sql: SqlStorage,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS replay_queue (seq INTEGER PRIMARY KEY AUTOINCREMENT,
      workflow_id TEXT NOT NULL, execution_id TEXT NOT NULL, mode TEXT NOT NULL)`);
  }

  /**
   * Starts a replay of one execution; resolves once the new execution is recorded. `as` test makes
   * it a test run with the execution's trigger input (docs/webhooks.md#test-runs).
   */
  async replay(
    workflowId: string,
    executionId: string,
    mode: ReplayMode,
    as?: ExecutionMode,
  ): Promise<ReplayResult> {
    const { store } = this.executor;
    const config = await this.source.workflow(workflowId);
    const row = await store.openedRow(executionId);
    if (!config || !row) return { ok: false, reason: "not_found" };
    let input: JsonValue;
    let original: WorkflowDefinition | undefined;
    if (row.live) {
      const live = toLive(row, row.live);
      input = live.state.outputs[live.state.triggerKey] ?? null;
      original = live.definition;
    } else {
      input = row.input
        ? (JSON.parse(row.input) as JsonValue)
        : (toRecord(row).nodes.find((run) => run.key === row.triggerKey)?.output ?? null);
      if (row.definitionAt !== undefined) original = await store.definition(row.definitionAt);
    }
    if (mode === "original" && !original) return { ok: false, reason: "original_gone" };
    const definition = mode === "original" && original ? original : config.definition;
    const trigger = definition.nodes.find((node) => node.key === row.triggerKey);
    if (trigger?.type !== "webhook" && trigger?.type !== "conversation_event") {
      return { ok: false, reason: "trigger_gone" };
    }
    const secrets = await this.source.secretValues(config.workspaceId);
    // Run where the execution it replays ran, so its id names this shard too.
    const now = Date.now();
    const id = idOnShard(newExecutionId(now), shardOfId(executionId));
    // Admitted under the workflow's current concurrency, whichever definition it runs on.
    const runOn =
      mode === "original" ? { definition, definitionAt: row.definitionAt ?? 0 } : undefined;
    const started = await this.executor.start(config, trigger, id, input, secrets, {
      replayOf: executionId,
      createdAt: now, // the time its id carries: its record is keyed by the id
      ...(runOn ? { runOn } : {}),
      ...(as ? { mode: as } : {}),
    });
    if (started === "queue_full") return { ok: false, reason: "queue_full" };
    return { ok: true, record: (await store.get(id)) as ExecutionRecord };
  }

  /** Queues replays of failed executions started in `[since, until)` (epoch ms), oldest first; how many. */
  async replayFailed(
    workflowId: string,
    window: { since: number; until: number },
    mode: ReplayMode,
  ): Promise<number> {
    const found: string[] = [];
    let after: string | undefined;
    // Newest first: scanning stops at the first page that reaches back before `since`.
    for (;;) {
      const page = await this.executor.store.list(SCAN_PAGE, after);
      for (const record of page.data) {
        const inWindow = record.startedAt >= window.since && record.startedAt < window.until;
        if (inWindow && record.status === "failed") found.push(record.id);
      }
      const oldest = page.data.at(-1);
      if (!page.hasMore || !oldest || oldest.startedAt < window.since) break;
      after = oldest.id;
    }
    const queued = found.reverse().slice(0, MAX_BULK_REPLAYS);
    for (const executionId of queued) {
      this.sql.exec(
        "INSERT INTO replay_queue (workflow_id, execution_id, mode) VALUES (?, ?, ?)",
        workflowId,
        executionId,
        mode,
      );
    }
    // The alarm goes on with the queue should the object be evicted meanwhile.
    if (queued.length > 0) await this.executor.wakeAt(Date.now() + REPLAY_WATCH_MS);
    void this.drain();
    return queued.length;
  }

  /** Called by the alarm: drains what a restart left, keeping the alarm while replays are queued. */
  async watch(): Promise<void> {
    const [left] = this.sql.exec("SELECT 1 FROM replay_queue LIMIT 1").toArray();
    if (!left) return;
    void this.drain();
    await this.executor.wakeAt(Date.now() + REPLAY_WATCH_MS);
  }

  /** Starts the queued replays one after another; one drain at a time. */
  drain(): Promise<void> {
    this.draining ??= this.drainQueue().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async drainQueue(): Promise<void> {
    for (;;) {
      const [next] = this.sql
        .exec<{ seq: number; workflow_id: string; execution_id: string; mode: ReplayMode }>(
          "SELECT seq, workflow_id, execution_id, mode FROM replay_queue ORDER BY seq LIMIT 1",
        )
        .toArray();
      if (!next) return;
      try {
        const result = await this.replay(next.workflow_id, next.execution_id, next.mode);
        if (!result.ok && result.reason === "queue_full") {
          // The workflow's queue is full: this replay waits its turn, and nothing is dropped.
          await scheduler.wait(QUEUE_FULL_RETRY_SECONDS * 1000);
          continue;
        }
        if (!result.ok)
          log("warn", "replay_skipped", { executionId: next.execution_id, reason: result.reason });
      } catch (error) {
        log("error", "replay_failed", { executionId: next.execution_id, error });
      }
      this.sql.exec("DELETE FROM replay_queue WHERE seq = ?", next.seq);
    }
  }
}
