/**
 * One node of an untrusted definition (docs/api/webhooks.md#definition): its type, then its
 * type's model's verdict, every problem under `nodes[i]`.
 */
import type { z } from "@hono/zod-openapi";
import { isPlainObject } from "../engine/template";
import { untypedNode, valueAt } from "./common";
import { isNodeType, NODE_MODELS, NODE_TYPES, type NodeType } from "./models";
import { type DefinitionProblem, judge, type NodeProblem } from "./problems";
import type { WorkflowNode } from "./types";

/** A node of a known type, whatever its settings. */
export type ParsedNode = {
  index: number;
  type: NodeType;
  /** Its key as written, when a string (a wrong one too, so connections naming it stand). */
  explicitKey: string | undefined;
  /** The node with its defaults, but for its key; absent when a setting is wrong. */
  node: Omit<WorkflowNode, "key"> | undefined;
  /** What the graph checks read of it: the node, or else what is right in it. */
  view: { type: NodeType } & Record<string, unknown>;
};

/** Adds `found` to `problems`, each field under `path` (`nodes[2]`, `connections[0]`, none). */
export const report = (problems: DefinitionProblem[], path: string, found: NodeProblem[]) => {
  for (const { field, code, message } of found) {
    problems.push({ field: [path, field].filter(Boolean).join("."), code, message });
  }
};

// Problems of a value's company rather than of the value: it stays readable.
const BESIDE = ["too_large", "missing_location", "not_allowed"];

/** `node` (a private copy) without the values that have problems of their own. */
function withoutProblems(node: Record<string, unknown>, problems: NodeProblem[]) {
  for (const { path, code, alone } of problems) {
    if (BESIDE.includes(code) && !alone) continue;
    const parent = valueAt(node, path.slice(0, -1));
    if (isPlainObject(parent)) delete parent[String(path.at(-1))];
  }
  return node;
}

/**
 * Checks node `index` of the input (a private copy), adding its problems to `problems`. Returns
 * no `parsed` when it has no known type (not an object, type missing or unknown); `knownKey` is
 * then the key it names, if any, so connections to it do not add a second, misleading problem.
 */
export function parseNode(
  raw: unknown,
  index: number,
  problems: DefinitionProblem[],
): { parsed?: ParsedNode; knownKey?: string } {
  const path = `nodes[${index}]`;
  if (!isPlainObject(raw)) {
    problems.push({ field: path, code: "invalid_type", message: "A node must be an object." });
    return {};
  }
  const explicitKey = typeof raw.key === "string" ? raw.key : undefined;
  const { type } = raw;
  if (!isNodeType(type)) {
    // The type says which settings there are: without one, only the key and name are checked.
    const has = Object.hasOwn(raw, "type");
    const code = !has
      ? "required"
      : typeof type === "string"
        ? "unknown_node_type"
        : "invalid_type";
    problems.push({ field: `${path}.type`, code, message: `Use one of ${NODE_TYPES.join(", ")}.` });
    const verdict = judge({ schema: untypedNode() }, raw);
    if (!verdict.ok) report(problems, path, verdict.problems);
    return { knownKey: explicitKey };
  }
  const model = NODE_MODELS[type];
  const verdict = judge<unknown>(model, raw);
  if (verdict.ok) {
    const node = verdict.node as Omit<WorkflowNode, "key">;
    return { parsed: { index, type, explicitKey, node, view: node }, knownKey: explicitKey };
  }
  report(problems, path, verdict.problems);
  // What is right in a node with problems still takes part in the graph checks, each setting as
  // its model reads it alone (header names in lower case, say).
  const shape = model.schema.shape as Record<string, z.ZodType>;
  const right = Object.entries(withoutProblems(raw, verdict.problems)).map(([name, value]) => {
    return [name, shape[name]?.safeParse(value).data ?? value];
  });
  const view = { ...Object.fromEntries(right), type };
  return { parsed: { index, type, explicitKey, node: undefined, view }, knownKey: explicitKey };
}
