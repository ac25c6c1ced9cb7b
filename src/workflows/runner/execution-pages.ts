/**
 * A page of one runner shard's execution records bounded by creation time, for the list the
 * management API merges over a sharded workflow's runners (docs/scaling.md#what-each-shard-holds).
 * Records are stored by a sequence number that grows with every new execution; their creation
 * time (`queuedAt`, else `startedAt`) is taken in the same synchronous step that assigns it, so it
 * grows with the sequence, and the boundary is found by bisection instead of a scan.
 */
import type { ExecutionPage } from "./contract";
import { createdAt, type Row, recordKey, toRecord } from "./execution-row";

/**
 * How far the clock may step back between two executions (a restart on another machine): the
 * bisection looks this much past the boundary and the records it passes are filtered one by one.
 */
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
 * The records created before `before.createdAt` (epoch ms; at it too when `inclusive`), newest
 * first, at most `limit`, from the shard's storage (pending saves written first by the caller).
 */
export async function listExecutionsBefore(
  storage: DurableObjectStorage,
  limit: number,
  before: { createdAt: number; inclusive: boolean },
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
      if (data.length === limit) return { data, hasMore: true };
      data.push(toRecord(row));
    }
    if (page.size < SCAN_PAGE) return { data, hasMore: false };
  }
}
