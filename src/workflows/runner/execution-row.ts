/** An execution record as stored, and its views: the record shown, the live execution run. */
import { executionIdTime, idTimeChars } from "../../platform/ids";
import type { JsonValue } from "../../platform/json";
import { startExecution } from "../engine/engine";
import type {
  ConversationEventNode,
  ExecutionState,
  NodeRun,
  NodeType,
  WebhookNode,
  WorkflowDefinition,
} from "../nodes/types";
import type { RunnerConfig } from "./config";
import type { ExecutionMode, ExecutionRecord } from "./contract";
import type { Flow } from "./flow-control";

/**
 * Storage keys: `x/~<time><rest of the id>` a record, in creation order (docs/architecture.md#storage):
 * an id made by `newExecutionId` names its own key, so it needs no index; another id (a
 * conversation event's) takes its creation time's characters and `i/<id>` names its key. Records
 * from before issue 33 stay where they were, `x/<seq, 12 digits>` (all sort before `x/~`) with
 * `i/<id>` holding the seq. `l/<id>` names the key of an unfinished one (a seq in the old layout),
 * `r/<id>` a large kept replay input, `d/<version>` a definition version records name.
 */
export const RECORD_PREFIX = "x/";
/** Where records in creation-time order start; every old-layout key sorts before it. */
export const TIMED_PREFIX = "x/~";
/** The key of an old-layout record (before issue 33). */
export const recordKey = (seq: number) => `x/${String(seq).padStart(12, "0")}`;
export const idKey = (id: string) => `i/${id}`;
export const liveKey = (id: string) => `l/${id}`;
export const inputKey = (id: string) => `r/${id}`;

/** The key a time-ordered execution id names, or null for another id. */
export function ownKey(id: string): string | null {
  return executionIdTime(id) === null ? null : `${TIMED_PREFIX}${id.slice(4)}`;
}

/** The creation time (epoch ms) a time-ordered execution id carries, or null for another id. */
export function idCreatedAt(id: string): number | null {
  const time = executionIdTime(id);
  return time === null ? null : Math.floor(time / 1000);
}

/**
 * A new record's key, in creation order: its id's own when the id carries its creation time (a
 * call's execution, a replay, a test run), else its creation time (epoch ms) and its id (a
 * conversation event's, a debounced or batched execution started after its first call).
 */
export function newRecordKey(id: string, createdAtMs: number): string {
  const own = idCreatedAt(id) === createdAtMs ? ownKey(id) : null;
  return own ?? `${TIMED_PREFIX}${idTimeChars(createdAtMs * 1000)}${id.slice(4)}`;
}

/** Where keys of records created after `ms` (epoch) start: every one before it sorts before. */
export const timedKeyAfter = (ms: number) => `${TIMED_PREFIX}${idTimeChars((ms + 1) * 1000)}`;

/** A stored record's number in its runner's creation order: in its key, or (new layout) in it. */
export function seqOf(key: string, row: { seq?: number }): number {
  return key.startsWith(TIMED_PREFIX) ? (row.seq ?? 0) : Number(key.slice(RECORD_PREFIX.length));
}

/** The record key an `l/` or `i/` value names: a key, or an old-layout seq. */
export const namedKey = (value: string | number) =>
  typeof value === "number" ? recordKey(value) : value;

/** A stored record by execution id, with its key: by the id's own key, else through `i/<id>`. */
export async function findRecord(
  storage: DurableObjectStorage,
  id: string,
): Promise<{ key: string; row: Row } | undefined> {
  const own = ownKey(id);
  const row = own === null ? undefined : await storage.get<Row>(own);
  if (own !== null && row?.id === id) return { key: own, row };
  // An event's id, or a record kept from before issue 33.
  const named = await storage.get<string | number>(idKey(id));
  if (named === undefined) return undefined;
  const key = namedKey(named);
  const found = await storage.get<Row>(key);
  return found ? { key, row: found } : undefined;
}
export const definitionKey = (version: number) => `d/${String(version).padStart(15, "0")}`;

/** A sealed kept input up to this length (characters) is stored inside its record. */
export const INLINE_INPUT_MAX_CHARS = 16_384;

/** An execution being run: the definition it started with and the engine's state. */
export type LiveExecution = {
  id: string;
  workflowId: string;
  triggerType: NodeType;
  definition: WorkflowDefinition;
  state: ExecutionState;
  startedAt: number;
  /** The version (`updatedAt`) of the definition it runs on. */
  definitionAt: number;
  /** The execution this one replays (docs/webhooks.md#replay). */
  replayOf: string | null;
  /** When it was queued behind the workflow's concurrency limit (docs/webhooks.md#concurrency). */
  queuedAt: number | null;
  /** A builder's test (docs/webhooks.md#test-runs): not counted in the workflow's metrics. */
  mode: ExecutionMode;
  /** What admission counts it under (docs/webhooks.md#flow-control). */
  flow: Flow;
};

/**
 * A new execution of the workflow from `trigger` with its output, on its current definition or,
 * for a replay, the one `options.runOn` names; `queued` when it waits for a concurrency slot;
 * `options.mode` test for a builder's test run (default production).
 */
export function newExecution(
  config: RunnerConfig,
  trigger: WebhookNode | ConversationEventNode,
  id: string,
  output: JsonValue,
  options: {
    replayOf?: string;
    runOn?: { definition: WorkflowDefinition; definitionAt: number };
    mode?: ExecutionMode;
    /** When it was created, if not `now`: the time its id carries (`idCreatedAt`). */
    createdAt?: number;
  },
  { now, queued, flow = {} }: { now: number; queued: boolean; flow?: Flow },
): LiveExecution {
  const created = options.createdAt ?? now;
  const definition = options.runOn?.definition ?? config.definition;
  return {
    id,
    workflowId: config.workflowId,
    triggerType: trigger.type,
    definition,
    state: startExecution(definition, trigger.key, output, now, id),
    startedAt: created,
    definitionAt: options.runOn?.definitionAt ?? config.updatedAt,
    replayOf: options.replayOf ?? null,
    queuedAt: queued ? created : null,
    mode: options.mode ?? "production",
    flow,
  };
}

/** What a running execution waits for, and when the runner must look at it again (epoch ms). */
export type Wake = { step: "fetch" | "wait"; at: number };

/** The stored record. */
export type Row = {
  id: string;
  workflowId: string;
  status: ExecutionState["status"] | "queued";
  triggerKey: string;
  triggerType: NodeType;
  startedAt: number;
  finishedAt: number | null;
  /** Redacted `NodeRun[]` as JSON. */
  nodes: string;
  /** `{definition, state}` as JSON while running; null once finished. */
  live: string | null;
  wake: Wake | null;
  /** See LiveExecution; absent on records written before replays existed. */
  definitionAt?: number;
  replayOf?: string | null;
  /**
   * The trigger's raw output, sealed, kept only when redaction changed the record (for replays);
   * stored inline up to INLINE_INPUT_MAX_CHARS, else in `r/<id>`.
   */
  input?: string | null;
  /** As stored: whether `r/<id>` holds the kept input (written apart from the record). */
  hasInput?: boolean;
  queuedAt?: number | null;
  /** Only a test's is stored (`test`); absent, production (and on records from before tests). */
  mode?: "test";
  /** Stored while unfinished, when it has one (docs/webhooks.md#flow-control). */
  flow?: Flow;
  /** Its number in the runner's creation order (new layout; an old one's is in its key). */
  seq?: number;
};

/** When an execution was created (epoch ms): queued, or else started; the order of merged lists. */
export function createdAt(record: { queuedAt?: number | null; startedAt: number }): number {
  return record.queuedAt ?? record.startedAt;
}

/** When the last node of `runs` finished (epoch ms), or null. */
export function lastFinishedAt(runs: NodeRun[]): number | null {
  let at: number | null = null;
  for (const run of runs) {
    if (run.finishedAt !== null && (at === null || run.finishedAt > at)) at = run.finishedAt;
  }
  return at;
}

/** The record as members see it. */
export function toRecord(row: Row): ExecutionRecord {
  return {
    id: row.id,
    workflowId: row.workflowId,
    status: row.status,
    trigger: { key: row.triggerKey, type: row.triggerType },
    nodes: JSON.parse(row.nodes) as NodeRun[],
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    replayOf: row.replayOf ?? null,
    queuedAt: row.queuedAt ?? null,
    mode: row.mode ?? "production",
  };
}

/** A running execution from its row and its opened state JSON (`{definition, state}`). */
export function toLive(row: Row, live: string): LiveExecution {
  const { definition, state } = JSON.parse(live) as {
    definition: WorkflowDefinition;
    state: ExecutionState;
  };
  return {
    id: row.id,
    workflowId: row.workflowId,
    triggerType: row.triggerType,
    definition,
    state,
    startedAt: row.startedAt,
    definitionAt: row.definitionAt ?? 0,
    replayOf: row.replayOf ?? null,
    queuedAt: row.queuedAt ?? null,
    mode: row.mode ?? "production",
    flow: row.flow ?? {},
  };
}

/**
 * The storage writes of a batch of sealed rows: confirmed (running), unconfirmed (finished) and
 * `l/` keys to delete; an unwritten definition version goes with its first record, then set null.
 * A new record whose id names its key writes one row, its record (docs/performance.md).
 */
export function storageWrites(
  batch: { key: string; row: Row; isNew: boolean }[],
  definitions: Map<number, WorkflowDefinition | null>,
): { confirmed: Record<string, unknown>; unconfirmed: Record<string, unknown>; ended: string[] } {
  const confirmed: Record<string, unknown> = {};
  const unconfirmed: Record<string, unknown> = {};
  const ended: string[] = [];
  for (const { key, row: sealedRow, isNew } of batch) {
    const into = sealedRow.live === null ? unconfirmed : confirmed;
    // Inline saves a row per call; a large input apart keeps the record under 2 MB.
    const { input, ...row } = sealedRow;
    const apart = Boolean(input) && (input?.length ?? 0) > INLINE_INPUT_MAX_CHARS;
    into[key] = { ...row, ...(input && !apart ? { input } : {}), hasInput: apart };
    if (input && apart) into[inputKey(row.id)] = input;
    if (isNew && ownKey(row.id) !== key) into[idKey(row.id)] = key;
    const version = row.definitionAt ?? 0;
    const definition = definitions.get(version);
    if (isNew && definition) {
      into[definitionKey(version)] = definition;
      definitions.set(version, null);
    }
    if (row.live !== null) confirmed[liveKey(row.id)] = key;
    else if (!isNew) ended.push(liveKey(row.id));
  }
  return { confirmed, unconfirmed, ended };
}
