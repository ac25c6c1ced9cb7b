/**
 * The engine's bookkeeping of node runs (docs/api/webhooks.md#executions): finding the node and its
 * run, and recording a run as succeeded (passing on to the connections of the branch taken) or
 * failed. Pure, like the engine.
 */
import type { JsonValue } from "../../platform/json";
import type { Branch } from "../nodes/models";
import type {
  ExecutionState,
  NodeRun,
  Step,
  WorkflowDefinition,
  WorkflowNode,
} from "../nodes/types";

/** The node of `key`. @throws Error when the definition lacks it (a runner bug) */
export function nodeByKey(definition: WorkflowDefinition, key: string): WorkflowNode {
  const node = definition.nodes.find((candidate) => candidate.key === key);
  // Only a state paired with another definition gets here: a runner bug, not a node failure.
  if (!node) throw new Error(`The execution names node "${key}", which the definition lacks.`);
  return node;
}

/** The run of the node at `position`, when that node has started and not finished. */
export function currentRun(state: ExecutionState, status: NodeRun["status"]): NodeRun | undefined {
  if (state.status !== "running") return undefined;
  const key = state.order[state.position];
  const run = state.runs.find((candidate) => candidate.key === key);
  return run?.status === status ? run : undefined;
}

/** The node's run, opened with `status` when it has none yet. */
export function openRun(
  state: ExecutionState,
  node: WorkflowNode,
  status: NodeRun["status"],
  now: number,
) {
  const existing = state.runs.find((run) => run.key === node.key);
  if (existing) return existing;
  const run: NodeRun = { key: node.key, type: node.type, status, startedAt: now, finishedAt: null };
  state.runs.push(run);
  return run;
}

/**
 * Records the node as succeeded with `output` and activates the nodes it connects to: those on
 * `branch` only when given (a condition's, an ask_person's).
 */
export function succeed(
  definition: WorkflowDefinition,
  state: ExecutionState,
  node: WorkflowNode,
  output: JsonValue,
  now: number,
  branch?: Branch,
): void {
  const run = openRun(state, node, "succeeded", now);
  Object.assign(run, { status: "succeeded", output, finishedAt: now });
  state.outputs[node.key] = output;
  state.lastNodeKey = node.key;
  // A condition or ask_person passes the branch it took; every other node follows all its connections.
  for (const { from, to, branch: taken } of definition.connections) {
    if (from !== node.key || (branch !== undefined && taken !== branch)) continue;
    if (!state.active.includes(to)) state.active.push(to);
  }
  state.position++;
}

/** Records the node, and so the execution, as failed with `error`; with `code` and `details` too. */
export function fail(
  state: ExecutionState,
  node: WorkflowNode,
  error: string,
  now: number,
  refusal: Pick<NodeRun, "errorCode" | "errorDetails"> = {},
): Step {
  const run = openRun(state, node, "failed", now);
  Object.assign(run, { status: "failed", error, finishedAt: now }, refusal);
  state.status = "failed";
  state.failedNodeKey = node.key;
  return { kind: "finished", status: "failed" };
}
