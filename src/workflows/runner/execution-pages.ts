/**
 * A shard's execution records before a creation time, for merged lists
 * (docs/scaling.md#what-each-shard-holds); creation time grows with the sequence number, so the
 * boundary is found by bisection.
 */
import type { ExecutionMode, ExecutionPage } from "./contract";
import { createdAt, type Row, recordKey, toRecord } from "./execution-row";

/** How far the clock may step back between executions (a restart elsewhere); filtered one by one. */
const CLOCK_SLACK_MS = 1_000;
const SCAN_PAGE = 128;
const PREFIX = "x/";

/** The record with the highest sequence number at most `seq`, with that number, or null. */
async function atOrBefore(
  storage: DurableObjectStorage,
  seq: number,
): Promise<{ seq: number; row: Row } | null> {
  const found = await storage.list<Row>({
    prefix: PREFIX,
    end: recordKey(seq + 1),
    reverse: true,
    limit: 1,
  });
  for (const [key, row] of found) return { seq: Number(key.slice(PREFIX.length)), row };
  return null;
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
  const newest = await storage.list<Row>({ prefix: PREFIX, reverse: true, limit: 1 });
  let high = 0;
  for (const key of newest.keys()) high = Number(key.slice(PREFIX.length));
  // The highest sequence number whose record was created by the boundary (plus the slack).
  const bound = before.createdAt + CLOCK_SLACK_MS;
  let low = 0;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const probe = await atOrBefore(storage, mid);
    if (!probe || createdAt(probe.row) <= bound) low = mid;
    else high = mid - 1;
  }
  const data: ExecutionPage["data"] = [];
  let end = recordKey(low + 1);
  for (;;) {
    const page = await storage.list<Row>({ prefix: PREFIX, end, reverse: true, limit: SCAN_PAGE });
    for (const [key, row] of page) {
      end = key;
      const at = createdAt(row);
      if (before.inclusive ? at > before.createdAt : at >= before.createdAt) continue;
      if (mode !== undefined && (row.mode ?? "production") !== mode) continue;
      if (data.length === limit) return { data, hasMore: true };
      data.push(toRecord(row));
    }
    if (page.size < SCAN_PAGE) return { data, hasMore: false };
  }
}
