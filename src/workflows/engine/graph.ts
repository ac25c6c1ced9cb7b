/** The connection graph of a definition (docs/api/webhooks.md#definition). */
import { type BoundedMap, mapOf } from "../../platform/bounded-map";
import type { Connection, WorkflowDefinition } from "../nodes/types";

/** Each node's direct successors (`forward`) or predecessors (`backward`), without repeats. */
export function neighbours(
  edges: Connection[],
  direction: "forward" | "backward",
): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { from, to } of edges) {
    const [a, b] = direction === "forward" ? [from, to] : [to, from];
    const list = map.get(a) ?? [];
    if (!list.includes(b)) list.push(b);
    map.set(a, list);
  }
  return map;
}

/** Every node with a path to `key` (its ancestors), `key` itself left out even within a cycle. */
export function ancestorsOf(key: string, previous: Map<string, string[]>): Set<string> {
  const found = new Set<string>();
  const queue = [...(previous.get(key) ?? [])];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (found.has(item)) continue;
    found.add(item);
    queue.push(...(previous.get(item) ?? []));
  }
  found.delete(key);
  return found;
}

/**
 * Orders by trigger, per definition object: every call of a workflow starts with the same order
 * (the runner keeps one definition object per version), and no one changes an order once made.
 */
const orders = new WeakMap<WorkflowDefinition, BoundedMap<string, readonly string[]>>();

/**
 * Nodes reachable from the trigger in topological order; ties go to the earlier node. The array
 * is shared by every execution of the definition from that trigger: read it, never change it.
 */
export function executionOrder(definition: WorkflowDefinition, triggerKey: string): string[] {
  const byTrigger = mapOf(orders, definition);
  return byTrigger.kept(triggerKey, (key) => Object.freeze(orderFrom(definition, key))) as string[];
}

function orderFrom(definition: WorkflowDefinition, triggerKey: string): string[] {
  const reachable = new Set([triggerKey]);
  for (const key of reachable) {
    for (const { from, to } of definition.connections) if (from === key) reachable.add(to);
  }
  const edges = definition.connections.filter(({ from }) => reachable.has(from));
  const pending = new Map<string, number>();
  for (const { to } of edges) pending.set(to, (pending.get(to) ?? 0) + 1);
  const candidates = definition.nodes.map(({ key }) => key).filter((key) => reachable.has(key));
  const order: string[] = [];
  for (;;) {
    const next = candidates.find((key) => !order.includes(key) && !pending.get(key));
    if (next === undefined) return order;
    order.push(next);
    for (const { from, to } of edges)
      if (from === next) pending.set(to, (pending.get(to) ?? 1) - 1);
  }
}
