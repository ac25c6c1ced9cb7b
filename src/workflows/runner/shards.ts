/**
 * How a hot workflow is spread over WorkflowRunner objects (docs/scaling.md#runner-shards): their
 * count, names, the shard ids name, and rate-limit shares. Pure; used by Worker, API and runner.
 */
import { markChars, shardMark } from "../../platform/ids";
import type { WorkflowDefinition } from "../nodes/types";

/** Webhook calls a minute one runner is sized for, from the benchmark (docs/scaling.md#runner-shards). */
export const RUNNER_CAPACITY_PER_MINUTE = 30_000;

/** The most runner objects one workflow is spread over. */
export const MAX_RUNNER_SHARDS = 8;

/**
 * How many runners the definition asks for: its highest `rateLimitPerMinute` over
 * RUNNER_CAPACITY_PER_MINUTE, rounded up, at most MAX_RUNNER_SHARDS; one with `concurrency`, and
 * one with a webhook node's `throttle`, `debounce` or `batch`, so each key's state lives on one
 * object and every limit is exact (docs/scaling.md#flow-control).
 */
export function shardCount(definition: WorkflowDefinition): number {
  if (definition.concurrency) return 1;
  if (definition.nodes.some((n) => n.type === "webhook" && (n.throttle || n.debounce || n.batch)))
    return 1;
  let highest = 0;
  for (const node of definition.nodes) {
    if (node.type === "webhook") highest = Math.max(highest, node.rateLimitPerMinute);
  }
  const wanted = Math.ceil(highest / RUNNER_CAPACITY_PER_MINUTE);
  return Math.min(MAX_RUNNER_SHARDS, Math.max(1, wanted));
}

/** The object name of a shard: the workflow id for shard 0 (as before shards), `<id>#<k>` else. */
export function shardObjectName(workflowId: string, shard: number): string {
  return shard === 0 ? workflowId : `${workflowId}#${shard}`;
}

/** The shard an `exe_…` or `whr_…` id names: `-k` at its end, shard 0 unmarked. */
export const shardOfId = shardMark;

/** The id marked for `shard` (unmarked for shard 0), replacing any mark it had. */
export function idOnShard(id: string, shard: number): string {
  const bare = id.slice(0, id.length - markChars(shardMark(id)));
  return shard === 0 ? bare : `${bare}-${shard}`;
}

/** A shard's share of a limit: even, the first `limit mod shards` one more, summing exactly. */
export function shareOf(limit: number, shards: number, shard: number): number {
  return Math.floor(limit / shards) + (shard < limit % shards ? 1 : 0);
}

/** A shard picked at random, evenly, from `shards`. */
export function pickShard(shards: number): number {
  if (shards <= 1) return 0;
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value ?? 0) % shards;
}
