/**
 * Gatherings not started yet in the executions list (docs/webhooks.md#flow-control): each as its
 * execution will be, `queued` with no node run since its first call, listed before the stored
 * executions on the first pages (they are the ones waiting to start).
 */
import type { ExecutionMode, ExecutionPage, ExecutionRecord } from "./contract";
import type { ExecutionStore } from "./execution-store";
import type { GatheringRow, GatheringStore } from "./gathering-store";

/** A gathering as the executions API shows it. */
export function gatheringRecord(row: GatheringRow): ExecutionRecord {
  return {
    id: row.execution_id,
    workflowId: row.workflow_id,
    status: "queued",
    trigger: { key: row.node_key, type: "webhook" },
    nodes: [],
    startedAt: row.first_at,
    finishedAt: null,
    replayOf: null,
    queuedAt: row.first_at,
    mode: "production",
  };
}

/** Waiting gatherings, newest first, after the one `after` names (at most `limit`). */
export function waitingGatherings(store: GatheringStore, limit: number, after?: string) {
  return store.page(limit, after).map(gatheringRecord);
}

/**
 * A page of the executions list: the waiting gatherings first, then the stored executions; a
 * cursor may name either (a builder's test runs are never gathered).
 */
export async function listWithGatherings(
  executions: ExecutionStore,
  gatherings: {
    waiting: (limit: number, after?: string) => ExecutionRecord[];
    has: (executionId: string) => boolean;
  },
  { limit, startingAfter, mode }: { limit: number; startingAfter?: string; mode?: ExecutionMode },
): Promise<ExecutionPage> {
  const afterStored = startingAfter !== undefined && !gatherings.has(startingAfter);
  if (mode === "test" || afterStored) return await executions.list(limit, startingAfter, mode);
  const waiting = gatherings.waiting(limit + 1, startingAfter);
  if (waiting.length > limit) return { data: waiting.slice(0, limit), hasMore: true };
  const page = await executions.list(limit - waiting.length, undefined, mode);
  return { data: [...waiting, ...page.data], hasMore: page.hasMore };
}
