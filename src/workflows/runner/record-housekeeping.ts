/** Deleting finished records past the count kept, and erasing a person (docs/security.md#erasure). */
import {
  createdAt,
  idKey,
  inputKey,
  liveKey,
  ownKey,
  RECORD_PREFIX,
  type Row,
  seqOf,
} from "./execution-row";
import { type StateBox, stateAad } from "./state-box";

/** What an erased record's node inputs and outputs become. */
export const ERASED = "[erased]";

/**
 * Deletes finished records among the oldest `limit`: with `maxSeq`, those numbered at most it in
 * the runner's creation order; with `before`, those created before it (epoch ms).
 * @returns how many were deleted, and whether the scan may have stopped short of the bounds
 */
export async function deleteFinished(
  storage: DurableObjectStorage,
  bounds: { maxSeq?: number; before?: number },
  limit = 1024,
): Promise<{ deleted: number; more: boolean }> {
  const rows = await storage.list<Row>({ prefix: RECORD_PREFIX, limit });
  const keys: string[] = [];
  let deleted = 0;
  for (const [key, row] of rows) {
    if (bounds.before !== undefined && createdAt(row) >= bounds.before) break;
    // Creation order and key order agree up to the clocks of the Workers that made the ids.
    if (bounds.maxSeq !== undefined && seqOf(key, row) > bounds.maxSeq) continue;
    if (row.live !== null) continue;
    keys.push(key);
    if (ownKey(row.id) !== key) keys.push(idKey(row.id));
    if (row.hasInput) keys.push(inputKey(row.id));
    deleted += 1;
  }
  for (let i = 0; i < keys.length; i += 128) {
    await storage.delete(keys.slice(i, i + 128), { allowUnconfirmed: true });
  }
  return { deleted, more: rows.size === limit };
}

/** Whether a text carries the person's id as a whole value (`cus_12` is not in `cus_123`). */
export function carrying(externalId: string): (text: string) => boolean {
  const escaped = externalId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(?<![A-Za-z0-9_-])${escaped}(?![A-Za-z0-9_-])`);
  return (text) => pattern.test(text);
}

/**
 * Erases the next page of records that carried the person: node outputs become `[erased]`, kept
 * inputs go, and an unfinished one ends as failed.
 * @param after where the last page ended (null: the first page)
 * @returns where to go on (null once done) and how many records were erased
 */
export async function eraseRecords(
  storage: DurableObjectStorage,
  store: { settle(): Promise<void>; forgetErased(id: string): void },
  box: StateBox,
  carries: (text: string) => boolean,
  page: { after: string | null; limit: number },
): Promise<{ next: string | null; erased: string[] }> {
  await store.settle();
  const rows = await storage.list<Row>({
    prefix: RECORD_PREFIX,
    ...(page.after ? { startAfter: page.after } : {}),
    limit: page.limit,
  });
  const erased: string[] = [];
  let next: string | null = null;
  for (const [key, row] of rows) {
    next = key;
    const aad = stateAad(row.workflowId, row.id);
    const apart = row.hasInput ? await storage.get<string>(inputKey(row.id)) : undefined;
    const sealed = [row.live, row.input, apart].filter((part): part is string => Boolean(part));
    const opened = await Promise.all(sealed.map((part) => box.open(part, aad)));
    if (!carries(row.nodes) && !opened.some(carries)) continue;
    if (row.live !== null) store.forgetErased(row.id);
    const nodes = (JSON.parse(row.nodes) as Record<string, unknown>[]).map((run) =>
      "output" in run ? { ...run, output: ERASED } : run,
    );
    const now = Date.now();
    const ended = row.live === null ? {} : { status: "failed", finishedAt: now, wake: null };
    storage.put(key, {
      ...row,
      ...ended,
      nodes: JSON.stringify(nodes),
      live: null,
      input: null,
      hasInput: false,
    });
    if (apart !== undefined) storage.delete(inputKey(row.id));
    if (row.live !== null) storage.delete(liveKey(row.id));
    erased.push(row.id);
  }
  return { next: rows.size < page.limit ? null : next, erased };
}

/** Deletes a runner table's rows whose `column` carries the person. @returns how many */
export function scrubRows(
  sql: SqlStorage,
  table: "capture_samples" | "dedupe",
  column: "output" | "key",
  carries: (text: string) => boolean,
): number {
  // A runner whose storage went with its workflow holds no table at all.
  const exists = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table);
  if (exists.toArray().length === 0) return 0;
  const rows = sql.exec<{ id: number; text: string }>(
    `SELECT rowid AS id, ${column} AS text FROM ${table}`,
  );
  let deleted = 0;
  for (const row of rows.toArray()) {
    if (!carries(String(row.text))) continue;
    sql.exec(`DELETE FROM ${table} WHERE rowid = ?`, row.id);
    deleted += 1;
  }
  return deleted;
}

/**
 * Erases the next page of what a runner holds of a person (docs/security.md#erasure): records and,
 * with the first page, log entries, samples, delivery keys and waiting debounced or batched calls.
 * @returns where to go on (null once done) and how many executions and log entries were erased
 */
export async function eraseFromRunner(
  parts: {
    storage: DurableObjectStorage;
    executor: { store: { settle(): Promise<void>; forgetErased(id: string): void } } & {
      forgetErased(id: string): void;
    };
    requests: { erase(carries: (text: string) => boolean): Promise<number> };
    /** Debounced and batched calls not run yet (docs/webhooks.md#debounce). */
    gatherings: { erase(carries: (text: string) => boolean): Promise<number> };
  },
  box: StateBox,
  externalId: string,
  page: { after: string | null; limit: number },
): Promise<{ next: string | null; executions: number; requests: number }> {
  const carries = carrying(externalId);
  const { storage, executor } = parts;
  const done = await eraseRecords(storage, executor.store, box, carries, page);
  for (const id of done.erased) executor.forgetErased(id);
  let requests = 0;
  let gathered = 0;
  if (page.after === null) {
    requests = await parts.requests.erase(carries);
    gathered = await parts.gatherings.erase(carries);
    scrubRows(storage.sql, "capture_samples", "output", carries);
    scrubRows(storage.sql, "dedupe", "key", carries);
  }
  return { next: done.next, executions: done.erased.length + gathered, requests };
}
