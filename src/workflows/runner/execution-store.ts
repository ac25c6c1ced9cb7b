/**
 * A WorkflowRunner's execution records (docs/api/webhooks.md): what is shown (node runs, secrets and
 * credential headers redacted) and, while running, the definition and engine state sealed by
 * `StateBox`, dropped once finished. Keys: `execution-row.ts`; unfinished ones are indexed in
 * memory (`LiveIndex`) with their wake times. A running record is written confirmed before anything
 * follows it; a finished one unconfirmed, gathered with others for FINISHED_BATCH_MS (why:
 * docs/architecture.md#workflow-runner).
 */
import { GroupCommit } from "../../platform/group-commit";
import type { KeyConfig } from "../../platform/secret-box";
import type { WorkflowDefinition } from "../nodes/types";
import type { ExecutionMode, ExecutionPage, ExecutionRecord } from "./contract";
import { shownRunsJson } from "./credential-headers";
import { listNewestFirst } from "./execution-pages";
import {
  createdAt,
  definitionKey,
  findRecord,
  inputKey,
  type LiveExecution,
  lastFinishedAt,
  namedKey,
  newRecordKey,
  RECORD_PREFIX,
  type Row,
  seqOf,
  storageWrites,
  toLive,
  toRecord,
  type Wake,
} from "./execution-row";
import { hasFlow } from "./flow-control";
import { LiveIndex } from "./live-index";
import type { ExecutionResult } from "./metrics-counts";
import { deleteFinished } from "./record-housekeeping";
import { StateBox, stateAad } from "./state-box";
import { shownRedaction } from "./steps";

/** Finished executions kept per workflow; older ones are deleted (like n8n's execution pruning). */
export const MAX_FINISHED_EXECUTIONS = 10_000;
const PRUNE_EVERY = 256;
/** How long a finished record may wait to be written with others (ms). */
export const FINISHED_BATCH_MS = 10;

/** The runner's execution records and running set (docs/architecture.md#storage). */
export class ExecutionStore {
  private seq = 0;
  private closed = false; // set by `forget`: nothing is written again, not even a write under way
  readonly live = new LiveIndex();
  private unsaved = new Map<string, { seq: number; key: string; row: Row; isNew: boolean }>();
  /** Writes the pending saves, grouped (docs/architecture.md#storage). */
  private readonly commit = new GroupCommit(() => this.flush());
  private finishedSincePrune = 0;
  /** Definition versions: to be written with the next batch, or null once written. */
  private readonly definitions = new Map<number, WorkflowDefinition | null>();
  /** Executions erased while live (`forgetErased`): never saved again. */
  readonly erased = new Set<string>();
  private readonly box: StateBox;

  /** @param keys seal running states; `onFinished` hears of each execution once, as it ends */
  constructor(
    private readonly storage: DurableObjectStorage,
    keys: KeyConfig,
    private readonly onFinished: (result: ExecutionResult) => void = () => {},
  ) {
    this.box = new StateBox(keys);
  }

  /** The row as stored: its live state and kept input sealed. */
  private async sealed(row: Row): Promise<Row> {
    const aad = stateAad(row.workflowId, row.id);
    const live = row.live === null ? null : await this.box.seal(row.live, aad);
    const input = row.input ? await this.box.seal(row.input, aad) : null;
    return { ...row, live, input };
  }

  /**
   * Reads the newest seq and the running executions (one keyed earlier may hold a higher seq: a new
   * call queues after it, docs/webhooks.md#concurrency); call once, while the object starts.
   */
  async load(): Promise<void> {
    const newest = await this.storage.list<Row>({ prefix: RECORD_PREFIX, reverse: true, limit: 1 });
    for (const [key, row] of newest) this.seq = seqOf(key, row);
    const live = await this.storage.list<string | number>({ prefix: "l/" });
    const rows = await this.storage.get<Row>([...live.values()].map(namedKey));
    for (const [name, value] of live) {
      const key = namedKey(value);
      const row = rows.get(key);
      if (!row) continue;
      const { wake, flow, status } = row;
      const seq = seqOf(key, row);
      this.seq = Math.max(this.seq, seq);
      this.live.set(name.slice(2), { seq, key, wake, queued: status === "queued", flow });
    }
  }

  /**
   * Records the execution as it is now (the row is built at once, so `get` sees it and later state
   * changes do not leak in); written with the other pending saves.
   * @param secretValues values replaced by `[redacted]` in what is shown (from `secretsForRedaction`)
   * @param wake for a running execution, what it waits for; null once finished
   * @param queued the execution waits for a free slot (docs/webhooks.md#concurrency)
   * @returns settles once written (confirmed or not)
   */
  save(
    execution: LiveExecution,
    secretValues: string[],
    wake: Wake | null,
    queued = false,
  ): Promise<void> {
    if (this.erased.has(execution.id)) return Promise.resolve();
    const { state } = execution;
    const finished = state.status !== "running";
    const known = this.live.get(execution.id) ?? this.unsaved.get(execution.id);
    const seq = known?.seq ?? ++this.seq;
    const key = known?.key ?? newRecordKey(execution.id, createdAt(execution));
    const redact = shownRedaction(secretValues, state); // the links' tokens too
    const nodes = shownRunsJson(execution.definition, state.triggerKey, state.runs, redact);
    // Only a record that redaction changed keeps the call as it was (sealed), for replays.
    const input =
      finished && nodes.includes("[redacted]")
        ? JSON.stringify(state.outputs[state.triggerKey] ?? null)
        : null;
    const row: Row = {
      id: execution.id,
      workflowId: execution.workflowId,
      status: queued ? "queued" : state.status,
      triggerKey: state.triggerKey,
      triggerType: execution.triggerType,
      startedAt: execution.startedAt,
      finishedAt: finished ? lastFinishedAt(state.runs) : null,
      nodes,
      live: finished ? null : JSON.stringify({ definition: execution.definition, state }),
      wake: finished ? null : wake,
      definitionAt: execution.definitionAt,
      replayOf: execution.replayOf,
      input,
      queuedAt: execution.queuedAt,
      ...(execution.mode === "test" ? { mode: "test" as const } : {}),
      ...(!finished && hasFlow(execution.flow) ? { flow: execution.flow } : {}),
      seq,
    };
    if (!this.definitions.has(execution.definitionAt)) {
      this.definitions.set(execution.definitionAt, execution.definition);
    }
    const isNew = known === undefined || (this.unsaved.get(execution.id)?.isNew ?? false);
    // A builder's test is not the workflow's traffic: the metrics leave it out.
    const counted = execution.mode !== "test";
    if (counted && state.status !== "running" && (!known || this.live.get(execution.id))) {
      this.onFinished(state.status);
    }
    this.unsaved.set(execution.id, { seq, key, row, isNew });
    if (finished) this.live.delete(execution.id);
    else this.live.set(execution.id, { seq, key, wake: row.wake, queued, flow: execution.flow });
    return this.commit.request(finished ? FINISHED_BATCH_MS : 0);
  }

  /** Writes the pending saves now, if any; settles once they are written (a list reads them after). */
  async settle(): Promise<void> {
    if (this.unsaved.size > 0) await this.commit.request(0);
  }

  private async flush(): Promise<void> {
    if (this.unsaved.size === 0) return;
    const pending = [...this.unsaved];
    // Sealed before anything is taken out of `unsaved`, so reads meanwhile still see the rows.
    const sealed = await Promise.all(pending.map(([, entry]) => this.sealed(entry.row)));
    const batch = pending.map(([id, entry], index) => {
      if (this.unsaved.get(id) === entry) this.unsaved.delete(id); // a newer save stays pending
      return { ...entry, row: sealed[index] ?? entry.row };
    });
    if (this.closed) return; // deleted while sealing
    const { confirmed, unconfirmed, ended } = storageWrites(batch, this.definitions);
    const writes: Promise<unknown>[] = [];
    if (Object.keys(confirmed).length > 0) writes.push(this.storage.put(confirmed));
    if (Object.keys(unconfirmed).length > 0) {
      writes.push(this.storage.put(unconfirmed, { allowUnconfirmed: true }));
    }
    if (ended.length > 0) writes.push(this.storage.delete(ended, { allowUnconfirmed: true }));
    await Promise.all(writes);
    this.finishedSincePrune += Object.keys(unconfirmed).length;
    if (this.finishedSincePrune >= PRUNE_EVERY) {
      this.finishedSincePrune = 0;
      await this.prune();
    }
  }

  /** The record of one execution, or null. */
  async get(id: string): Promise<ExecutionRecord | null> {
    const row = await this.row(id);
    return row ? toRecord(row) : null;
  }

  /** The stored row of one execution (pending writes included), its sealed parts still sealed. */
  private async row(id: string): Promise<Row | undefined> {
    const pending = this.unsaved.get(id);
    if (pending) return pending.row;
    return (await this.stored(id))?.row;
  }

  private stored(id: string): Promise<{ key: string; row: Row } | undefined> {
    return findRecord(this.storage, id);
  }

  /** The row of one execution with its live state and kept input opened, or undefined. */
  async openedRow(id: string): Promise<Row | undefined> {
    const pending = this.unsaved.get(id);
    if (pending) return pending.row;
    const row = await this.row(id);
    if (!row) return undefined;
    const aad = stateAad(row.workflowId, row.id);
    const live = row.live ? await this.box.open(row.live, aad) : null;
    const sealedInput =
      row.input ?? (row.hasInput ? await this.storage.get<string>(inputKey(id)) : undefined);
    const input = sealedInput ? await this.box.open(sealedInput, aad) : null;
    return { ...row, live, input };
  }

  /** The definition of a version a record names, if it was kept. */
  async definition(version: number): Promise<WorkflowDefinition | undefined> {
    const unwritten = this.definitions.get(version);
    if (unwritten) return unwritten;
    return await this.storage.get<WorkflowDefinition>(definitionKey(version));
  }

  /**
   * Newest first, of `mode` only when given; `startingAfter` (an execution id) pages on to older
   * ones. A filtered list reads on page by page until it has `limit + 1` records or none are left
   * (at most the MAX_FINISHED_EXECUTIONS kept, plus the running ones).
   */
  async list(limit: number, startingAfter?: string, mode?: ExecutionMode): Promise<ExecutionPage> {
    await this.settle();
    let end: string | undefined;
    if (startingAfter) {
      const found = await this.stored(startingAfter);
      if (found === undefined) return { data: [], hasMore: false };
      end = found.key;
    }
    return await listNewestFirst(this.storage, limit, end, mode);
  }

  /** Running executions whose wake time has come, oldest first (at most `limit`). */
  async due(now: number, limit = 500): Promise<LiveExecution[]> {
    const keys = this.live.dueKeys(now, limit);
    await this.settle();
    const rows = await this.storage.get<Row>(keys);
    const live = keys.flatMap((key) => {
      const row = rows.get(key);
      return row?.live ? [row] : [];
    });
    return Promise.all(
      live.map(async (row) =>
        toLive(row, await this.box.open(row.live ?? "null", stateAad(row.workflowId, row.id))),
      ),
    );
  }

  /** Forgets what is in memory, after the object's storage was deleted with its workflow. */
  forget(): void {
    this.closed = true;
    this.seq = 0;
    this.live.clear();
    this.unsaved.clear();
    this.definitions.clear();
  }

  /** An unfinished execution as stored, to run it (a queued one, when its turn comes), or null. */
  async opened(id: string): Promise<LiveExecution | null> {
    const row = await this.openedRow(id);
    return row?.live ? toLive(row, row.live) : null;
  }

  /** Records a queued execution that could not be started as failed (its state is dropped). */
  async failUnstarted(id: string): Promise<void> {
    const entry = this.live.get(id);
    const row = await this.row(id);
    if (entry === undefined || !row) return;
    const ended = { status: "failed", finishedAt: Date.now(), live: null, wake: null } as const;
    const { seq, key } = entry;
    this.unsaved.set(id, { seq, key, row: { ...row, ...ended }, isNew: false });
    this.live.delete(id);
    if (row.mode !== "test") this.onFinished("failed");
    await this.commit.request(FINISHED_BATCH_MS);
  }

  /** Deletes the oldest finished records beyond MAX_FINISHED_EXECUTIONS. */
  private async prune(): Promise<void> {
    const cutoff = this.seq - MAX_FINISHED_EXECUTIONS - this.live.size;
    // The oldest records: a prune's worth past the count, and room for running ones among them.
    if (cutoff > 0) await deleteFinished(this.storage, { maxSeq: cutoff }, 2 * PRUNE_EVERY);
  }

  /** Forgets an unfinished execution that was erased (docs/security.md#erasure); later saves drop. */
  forgetErased(id: string): void {
    this.erased.add(id);
    this.live.delete(id);
    this.unsaved.delete(id);
  }
}
