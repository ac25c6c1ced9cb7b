/**
 * Debounce and batch (docs/webhooks.md#debounce, docs/webhooks.md#batch): calls of one key gather
 * in the runner's SQLite (GatheringStore, their data sealed like running states) under the execution
 * id the first call was answered with; the alarm starts each gathering through `Executor.start` once
 * due, so a restart or an eviction loses none (docs/scaling.md#debounce-and-batch).
 */
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { WebhookNode, WebhookOutput } from "../nodes/types";
import { renderReply } from "../webhook/http-answer";
import type { RunnerConfig } from "./config";
import type { DirectOutcome, ExecutionRecord, WebhookCall } from "./contract";
import type { Deliveries } from "./dedupe-claims";
import type { Executor } from "./executor";
import { flowKey } from "./flow-key";
import { gatheringRecord, waitingGatherings } from "./gathering-list";
import { type GatheringKind, type GatheringRow, GatheringStore } from "./gathering-store";
import { eraseGathered, resealGathered } from "./gathering-upkeep";
import { webhookNode } from "./late-answers";
import type { RequestOutcome } from "./request-log-entry";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import { type StateBox, stateAad } from "./state-box";
import type { WorkflowSource } from "./workflow-source";

/** Gatherings a runner holds at most (open or due); a call that would open one more gets queue_full. */
export const MAX_GATHERINGS = 10_000;
/** Gatherings started per pass of the alarm; more wait for the next pass, right after. */
const STARTS_PER_PASS = 100;
/** Failed attempts to start a gathering before it is given up (logged). */
const MAX_ATTEMPTS = 5;
/**
 * A batch's sealed call data, in characters, past which it starts before its next call joins: its
 * execution's record stays within what one large call brings (docs/webhooks.md#batch).
 */
export const MAX_BATCH_CHARS = 512 * 1024;
/** How long after a failed attempt the next one comes (ms). */
const RETRY_MS = 30_000;

/** How a call was gathered: into a new gathering (`merged: false`) or an open one; or refused. */
export type Gathered =
  | { kind: "gathered"; executionId: string; merged: boolean; gathering: GatheringKind }
  | { kind: "queue_full" };

/** What gathering needs from the runner. */
export type GatheringParts = {
  deliveries: Deliveries;
  source: WorkflowSource;
  executor: Executor;
};

/** A runner's debounced and batched calls, until each gathering starts its execution. */
export class Gatherings {
  private readonly store: GatheringStore;
  private pass: Promise<void> | null = null;
  private again = false;

  /** @param box seals the calls' data as running states are (docs/security.md#secrets-at-rest) */
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly box: StateBox,
    private readonly parts: GatheringParts,
  ) {
    this.store = new GatheringStore(ctx.storage.sql);
  }

  /**
   * Answers a call of a node with `debounce` or `batch` (docs/webhooks.md#debounce,
   * docs/webhooks.md#batch) once its checks and delivery claim passed: `accepted` at once with its
   * gathering's execution id (`debounced` when merged into an open one), or `queue_full` (its claim
   * released, so a retry is no repeat); the request log's outcome with it.
   */
  async answer(
    config: RunnerConfig,
    node: WebhookNode,
    call: WebhookCall,
    output: WebhookOutput,
  ): Promise<{ outcome: DirectOutcome; logged?: RequestOutcome }> {
    const { deliveries } = this.parts;
    const { executionId, workflowId } = call;
    let gathered: Gathered;
    try {
      gathered = await this.gather(config, node, call, output);
    } catch (error) {
      deliveries.started(executionId);
      // Nothing gathered: the sender's retry of this delivery must not be taken for a repeat.
      await deliveries.release(workflowId, executionId);
      throw error;
    }
    deliveries.started(executionId);
    if (gathered.kind === "queue_full") {
      await deliveries.release(workflowId, executionId);
      return { outcome: { kind: "queue_full", retryAfterSeconds: QUEUE_FULL_RETRY_SECONDS } };
    }
    const { executionId: into, merged } = gathered;
    // One shard (shards.ts): the claim is this object's; a repeat is answered with the gathering's id.
    if (merged) deliveries.local.rebind(executionId, into);
    const debounced = merged && gathered.gathering === "debounce";
    const reply = renderReply(node, output, into);
    const outcome = {
      kind: "accepted" as const,
      executionId: into,
      ...(debounced ? { debounced } : {}),
      ...(reply ? { reply } : {}),
    };
    const logged = gathered.gathering === "batch" ? "batched" : debounced ? "debounced" : undefined;
    return { outcome, logged };
  }

  /**
   * Gathers a call of a node with `debounce` or `batch` (its checks and dedupe passed).
   * @returns the execution id the call is answered with, and whether it joined an open gathering;
   * `queue_full` when a new gathering finds the workflow's queue (or MAX_GATHERINGS) full
   */
  private async gather(
    config: RunnerConfig,
    node: WebhookNode,
    call: WebhookCall,
    output: WebhookOutput,
  ): Promise<Gathered> {
    const { executor } = this.parts;
    const { box } = this;
    const kind: GatheringKind = node.debounce ? "debounce" : "batch";
    const key = flowKey(node.debounce?.key ?? node.batch?.key, node.key, output);
    const now = Date.now();
    const data = kind === "batch" ? batchItem(output, call.receivedAt) : output;
    // Sealed under the call's own id: which gathering it joins is known only below.
    const aad = stateAad(config.workflowId, call.executionId);
    const sealed = { call_id: call.executionId, data: await box.seal(JSON.stringify(data), aad) };
    // From here to the writes nothing is awaited: two calls of one key never open two gatherings.
    let open = this.store.open(node.key, key, kind);
    // A batch whose data would grow past MAX_BATCH_CHARS starts now, as one whose time came.
    const overflows = kind === "batch" && open && open.bytes + sealed.data.length > MAX_BATCH_CHARS;
    if (open && (open.due_at <= now || overflows)) {
      // Its time came (or its room ran out) and the alarm is on its way: this call opens the next.
      if (overflows) this.store.postpone(open.execution_id, now);
      this.store.close(open.execution_id);
      this.ctx.waitUntil(this.runDue());
      open = undefined;
    }
    let executionId: string;
    let dueAt: number;
    if (!open) {
      if (executor.queueFull(config, node, output) || this.store.count() >= MAX_GATHERINGS) {
        return { kind: "queue_full" };
      }
      executionId = call.executionId;
      dueAt = firstDue(node, now);
      const row = { execution_id: executionId, workflow_id: config.workflowId, node_key: node.key };
      const times = { first_at: now, last_at: now, due_at: dueAt, calls: 1, open: 1 };
      this.store.create({ ...row, key, kind, ...times }, sealed);
    } else {
      executionId = open.execution_id;
      const calls = open.calls + 1;
      const full = node.batch !== undefined && calls >= node.batch.maxSize;
      dueAt = full ? now : nextDue(node, open, now);
      const n = kind === "batch" ? open.calls : 0;
      this.store.join(executionId, n, sealed, { lastAt: now, dueAt, calls, open: !full });
      if (full) this.ctx.waitUntil(this.runDue());
    }
    await executor.wakeAt(dueAt);
    return { kind: "gathered", executionId, merged: open !== undefined, gathering: kind };
  }

  /**
   * Starts every gathering whose time came (the alarm's hook, and a full batch's), one pass at a
   * time; arms the alarm for the next one.
   */
  runDue(): Promise<void> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    this.pass = (async () => {
      // Bounded: a pass asked for while one ran gets one more, and each starts at most STARTS_PER_PASS.
      for (let round = 0; round < 10; round++) {
        this.again = false;
        const now = Date.now();
        for (const row of this.store.due(now, STARTS_PER_PASS)) await this.start(row);
        if (!this.again) break;
      }
      const next = this.store.nextDue();
      if (next !== null) await this.parts.executor.wakeAt(Math.max(next, Date.now() + 1));
    })().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  /** Starts one gathering's execution, with the newest call's data (debounce) or every call's (batch). */
  private async start(row: GatheringRow): Promise<void> {
    const { source, executor } = this.parts;
    const { box } = this;
    const id = row.execution_id;
    this.store.close(id);
    try {
      const config = await source.workflow(row.workflow_id);
      const node = config ? webhookNode(config, row.node_key) : undefined;
      if (!config || !node) {
        log("warn", "gathering_dropped", { workflowId: row.workflow_id, reason: "node_gone" });
        return this.store.delete(id);
      }
      // Started before a restart came between its start and this row's deletion: not twice.
      if (executor.isRunning(id) || (await executor.store.get(id))) return this.store.delete(id);
      const opened = await Promise.all(
        this.store
          .calls(id)
          .map(async (c) =>
            JSON.parse(await box.open(c.data, stateAad(row.workflow_id, c.call_id))),
          ),
      );
      const output: JsonValue = row.kind === "batch" ? { items: opened } : (opened.at(-1) ?? null);
      const secrets = await source.secretValues(config.workspaceId);
      const started = await executor.start(config, node, id, output, secrets);
      // Its calls were answered: it waits for room as long as it takes, as a queued execution does.
      if (started === "queue_full") {
        return this.store.postpone(id, Date.now() + QUEUE_FULL_RETRY_SECONDS * 1000);
      }
      this.store.delete(id);
    } catch (error) {
      log("error", "gathering_start_failed", { workflowId: row.workflow_id, error });
      this.retry(row, RETRY_MS);
    }
  }

  /** Tries again later; a gathering that keeps failing is given up after MAX_ATTEMPTS. */
  private retry(row: GatheringRow, afterMs: number): void {
    if (row.attempts + 1 >= MAX_ATTEMPTS) {
      log("error", "gathering_dropped", { workflowId: row.workflow_id, reason: "attempts" });
      this.store.delete(row.execution_id);
    } else {
      this.store.retry(row.execution_id, Date.now() + afterMs);
    }
  }

  /** Drops the waiting calls that carry a person (gathering-upkeep.ts); how many. */
  erase(carries: (text: string) => boolean): Promise<number> {
    return eraseGathered(this.store, this.box, carries);
  }

  /** Seals the waiting calls again under the current key (gathering-upkeep.ts); how many. */
  reseal(): Promise<number> {
    return resealGathered(this.store, this.box);
  }

  /**
   * A gathering not started yet, as the executions API shows it: `queued`, no node run, since its
   * first call (docs/webhooks.md#flow-control); null when no gathering has this id.
   */
  record(executionId: string): ExecutionRecord | null {
    const row = this.store.get(executionId);
    return row ? gatheringRecord(row) : null;
  }

  /** Whether a gathering not started yet has this id. */
  has(executionId: string): boolean {
    return this.store.get(executionId) !== undefined;
  }

  /** Waiting gatherings as the executions list shows them, newest first (gathering-list.ts). */
  waiting(limit: number, after?: string): ExecutionRecord[] {
    return waitingGatherings(this.store, limit, after);
  }
}

/** One call as a batch's item: `{body, headers, queryParams, method, receivedAt}` (ISO 8601). */
export function batchItem(output: WebhookOutput, receivedAt: number) {
  const { body, headers, queryParams, method, rawBody } = output;
  const at = new Date(receivedAt).toISOString();
  return { body, headers, queryParams, method, receivedAt: at, ...(rawBody ? { rawBody } : {}) };
}

/** When a new gathering is due: a period after it (debounce, capped by maxWait), or at maxWait (batch). */
function firstDue(node: WebhookNode, now: number): number {
  if (node.batch) return now + node.batch.maxWaitSeconds * 1000;
  const { periodSeconds, maxWaitSeconds } = node.debounce ?? { periodSeconds: 0 };
  return now + Math.min(periodSeconds, maxWaitSeconds ?? periodSeconds) * 1000;
}

/** When an open gathering is due after one more call: debounce waits a new period, capped by maxWait. */
function nextDue(node: WebhookNode, open: GatheringRow, now: number): number {
  if (!node.debounce) return open.due_at;
  const { periodSeconds, maxWaitSeconds } = node.debounce;
  const quiet = now + periodSeconds * 1000;
  return maxWaitSeconds === undefined
    ? quiet
    : Math.min(quiet, open.first_at + maxWaitSeconds * 1000);
}
