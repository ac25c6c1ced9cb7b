/**
 * A shard's execution records before a creation time, for merged lists
 * (docs/scaling.md#what-each-shard-holds). Records keyed by creation time (docs/architecture.md#storage)
 * are read from the boundary on; older ones, from before issue 33, are numbered in creation order,
 * so their boundary is found by bisection.
 */
import type { ExecutionMode, ExecutionPage } from "./contract";
import {
  createdAt,
  RECORD_PREFIX,
  type Row,
  recordKey,
  TIMED_PREFIX,
  timedKeyAfter,
  toRecord,
} from "./execution-row";

/** How far the clock may step back between executions (a restart elsewhere); filtered one by one. */
const CLOCK_SLACK_MS = 1_000;
/** Records read per page by a list filtered by mode. */
const LIST_SCAN_PAGE = 200;
const SCAN_PAGE = 128;

/** The old-layout record with the highest sequence number at most `seq`, with that number, or null. */
async function atOrBefore(
  storage: DurableObjectStorage,
  seq: number,
): Promise<{ seq: number; row: Row } | null> {
  const found = await storage.list<Row>({
    prefix: RECORD_PREFIX,
    end: recordKey(seq + 1),
    reverse: true,
    limit: 1,
  });
  for (const [key, row] of found) return { seq: Number(key.slice(RECORD_PREFIX.length)), row };
  return null;
}

/** Where the old layout's records created by `bound` (epoch ms) end: found by bisection. */
async function oldLayoutEnd(storage: DurableObjectStorage, bound: number): Promise<string> {
  const newest = await storage.list<Row>({
    prefix: RECORD_PREFIX,
    end: TIMED_PREFIX,
    reverse: true,
    limit: 1,
  });
  let high = 0;
  for (const key of newest.keys()) high = Number(key.slice(RECORD_PREFIX.length));
  let low = 0;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const probe = await atOrBefore(storage, mid);
    if (!probe || createdAt(probe.row) <= bound) low = mid;
    else high = mid - 1;
  }
  return recordKey(low + 1);
}

/**
 * Records newest first (the newer layout's, then the old's), before the key `end` when given, of
 * `mode` only when given: a filtered list reads on page by page until it has `limit + 1` records
 * or none are left.
 */
export async function listNewestFirst(
  storage: DurableObjectStorage,
  limit: number,
  end: string | undefined,
  mode?: ExecutionMode,
): Promise<ExecutionPage> {
  const found: ExecutionPage["data"] = [];
  const pageSize = mode === undefined ? limit + 1 : LIST_SCAN_PAGE;
  let before = end;
  for (;;) {
    const rows: Map<string, Row> = await storage.list<Row>({
      prefix: RECORD_PREFIX,
      end: before,
      reverse: true,
      limit: pageSize,
    });
    for (const [key, row] of rows) {
      before = key;
      if (mode === undefined || (row.mode ?? "production") === mode) found.push(toRecord(row));
    }
    if (found.length > limit || rows.size < pageSize) break;
  }
  return { data: found.slice(0, limit), hasMore: found.length > limit };
}

/**
 * Records created before `before.createdAt` (epoch ms; at it if `inclusive`), newest first, of
 * `mode` only when given.
 */
export async function listExecutionsBefore(
  storage: DurableObjectStorage,
  limit: number,
  before: { createdAt: number; inclusive: boolean },
  mode?: ExecutionMode,
): Promise<ExecutionPage> {
  const bound = before.createdAt + CLOCK_SLACK_MS;
  const data: ExecutionPage["data"] = [];
  // Newest first: the records keyed by time up to the boundary, then the old layout's.
  let end: string | undefined = timedKeyAfter(bound);
  let oldLayout = false;
  for (;;) {
    const prefix = oldLayout ? RECORD_PREFIX : TIMED_PREFIX;
    const page: Map<string, Row> = await storage.list<Row>({
      prefix,
      end,
      reverse: true,
      limit: SCAN_PAGE,
    });
    for (const [key, row] of page) {
      end = key;
      const at = createdAt(row);
      if (before.inclusive ? at > before.createdAt : at >= before.createdAt) continue;
      if (mode !== undefined && (row.mode ?? "production") !== mode) continue;
      if (data.length === limit) return { data, hasMore: true };
      data.push(toRecord(row));
    }
    if (page.size < SCAN_PAGE) {
      if (oldLayout) return { data, hasMore: false };
      oldLayout = true;
      end = await oldLayoutEnd(storage, bound);
    }
  }
}
