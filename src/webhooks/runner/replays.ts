/**
 * Replays of a workflow's executions (docs/webhooks.md#replay): a new execution with the same
 * trigger input, on the definition the first ran on (`original`) or the current one (`current`),
 * n8n's two retry modes. Bulk replays of failed executions are queued in the runner's SQLite and
 * started one after another in the background; a restart goes on with what is left.
 */

import { newId } from "../../platform/ids";
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { ExecutionState, WorkflowDefinition } from "../../workflow/types";
import type { ExecutionRecord, ReplayMode, ReplayResult } from "./contract";
import type { Executor } from "./executor";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import type { WorkflowSource } from "./workflow-source";

/** Bulk replays take at most this many executions per request, oldest first. */
export const MAX_BULK_REPLAYS = 1_000;
const SCAN_PAGE = 500;

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

  /** Starts a replay of one execution; resolves once the new execution is recorded. */
  async replay(workflowId: string, executionId: string, mode: ReplayMode): Promise<ReplayResult> {
    const { store } = this.executor;
    const config = await this.source.workflow(workflowId);
    const row = await store.row(executionId);
    if (!config || !row) return { ok: false, reason: "not_found" };
    let input: JsonValue;
    let original: WorkflowDefinition | undefined;
    if (row.live) {
      const live = JSON.parse(await store.open(row, row.live)) as {
        definition: WorkflowDefinition;
        state: ExecutionState;
      };
      input = live.state.outputs[live.state.triggerKey] ?? null;
      original = live.definition;
    } else {
      const record = (await store.get(executionId)) as ExecutionRecord;
      input = row.input
        ? (JSON.parse(await store.open(row, row.input)) as JsonValue)
        : (record.nodes.find((run) => run.key === row.triggerKey)?.output ?? null);
      if (row.definitionAt !== undefined) original = await store.definition(row.definitionAt);
    }
    if (mode === "original" && !original) return { ok: false, reason: "original_gone" };
    const definition = mode === "original" && original ? original : config.definition;
    const trigger = definition.nodes.find((node) => node.key === row.triggerKey);
    if (trigger?.type !== "webhook" && trigger?.type !== "conversation_event") {
      return { ok: false, reason: "trigger_gone" };
    }
    const run =
      mode === "original" ? { ...config, definition, updatedAt: row.definitionAt ?? 0 } : config;
    const secrets = await this.source.secretValues(config.workspaceId);
    const id = newId("exe");
    const started = await this.executor.start(run, trigger, id, input, secrets, executionId);
    if (started === "queue_full") return { ok: false, reason: "queue_full" };
    return { ok: true, record: (await store.get(id)) as ExecutionRecord };
  }

  /**
   * Queues a replay of every failed execution started in `[since, until)` (epoch ms), oldest
   * first, at most MAX_BULK_REPLAYS, and starts them in the background.
   * @returns how many were queued
   */
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
    void this.drain();
    return queued.length;
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
