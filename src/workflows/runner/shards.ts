/**
 * How a hot workflow is spread over several WorkflowRunner objects (docs/scaling.md#runner-shards):
 * how many it gets, how each is named, how an execution id, a request-log id and a result handle
 * name the one that holds them, and each one's share of a webhook node's rate limit. Pure: the
 * Worker, the management API and the runner all use it.
 */
import type { WorkflowDefinition } from "../nodes/types";

/**
 * Webhook calls a minute one runner object is sized for (docs/scaling.md#runner-shards). A workflow
 * whose webhook nodes allow more gets more runners; tuned from the benchmark.
 */
export const RUNNER_CAPACITY_PER_MINUTE = 30_000;

/** The most runner objects one workflow is spread over. */
export const MAX_RUNNER_SHARDS = 8;

/**
 * How many runner objects the definition asks for: the highest `rateLimitPerMinute` of its webhook
 * nodes over RUNNER_CAPACITY_PER_MINUTE, rounded up, at most MAX_RUNNER_SHARDS. A workflow with a
 * `concurrency` limit keeps one (its slots and first-in-first-out queue live in one place), and
 * so does one without webhook nodes.
 */
export function shardCount(definition: WorkflowDefinition): number {
  if (definition.concurrency) return 1;
  let highest = 0;
  for (const node of definition.nodes) {
    if (node.type === "webhook") highest = Math.max(highest, node.rateLimitPerMinute);
  }
  const wanted = Math.ceil(highest / RUNNER_CAPACITY_PER_MINUTE);
  return Math.min(MAX_RUNNER_SHARDS, Math.max(1, wanted));
}

/**
 * The object name of shard `shard` of the workflow: shard 0 is the workflow id itself, the name
 * every workflow's runner had before shards existed, so nothing stored moves.
 */
export function shardObjectName(workflowId: string, shard: number): string {
  return shard === 0 ? workflowId : `${workflowId}#${shard}`;
}

const MARK = /-([1-9]\d?)$/;

/**
 * The shard an id names: an execution id (`exe_…`) or a request-log id (`whr_…`) made on shard
 * k > 0 ends in `-k`; one without the mark (made on shard 0, or before shards existed) is shard 0.
 */
export function shardOfId(id: string): number {
  const mark = MARK.exec(id);
  return mark ? Number(mark[1]) : 0;
}

/** The id marked for `shard` (unmarked for shard 0), replacing any mark it had. */
export function idOnShard(id: string, shard: number): string {
  const bare = id.replace(MARK, "");
  return shard === 0 ? bare : `${bare}-${shard}`;
}

/**
 * Shard `shard`'s share of a limit spread over `shards`: the limit divided evenly, the first
 * `limit mod shards` shards taking one more, so the shares add up to the limit exactly.
 */
export function shareOf(limit: number, shards: number, shard: number): number {
  return Math.floor(limit / shards) + (shard < limit % shards ? 1 : 0);
}

/** A shard picked at random, evenly, from `shards`. */
export function pickShard(shards: number): number {
  if (shards <= 1) return 0;
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return (value ?? 0) % shards;
}
