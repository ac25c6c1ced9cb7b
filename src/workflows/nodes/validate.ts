/**
 * Validation of an untrusted workflow definition (docs/api/webhooks.md#definition): each
 * node by its type's model and each connection by its own (parts.ts), then the rules of the graph:
 * keys, connection ends, cycles, template references, respond nodes. Every problem is reported at
 * once, and a valid definition comes back as a fresh object with every default filled in.
 */
import { z } from "@hono/zod-openapi";
import type { DetailCode } from "../../platform/detail-codes";
import { cloneJson } from "../engine/clone";
import { ancestorsOf, neighbours } from "../engine/graph";
import { isPlainObject, templateReferences } from "../engine/template";
import {
  BRANCHES,
  branchesOf,
  ConnectionSchema,
  isTriggerNode,
  nextKey,
  templatedSettings,
} from "./models";
import { type ParsedNode, parseNode, report } from "./parts";
import { judge } from "./problems";
import { EXECUTION_SCOPE } from "./reply";
import type { Connection, DefinitionProblem, WorkflowDefinition, WorkflowNode } from "./types";

/** A node of a known type with its final key; `view` is what the graph checks read of it. */
type Entry = ParsedNode & { key: string };
type Problems = DefinitionProblem[];

const Lists = z.object({
  nodes: z.array(z.unknown()).max(100),
  connections: z.array(z.unknown()).max(500),
});

/**
 * Parses every node, then gives each its final key: explicit keys as written, keyless nodes
 * `<type>_<n>` with the smallest n no other node uses (the first webhook is `webhook_1`; docs/api/webhooks.md#definition).
 * `knownKeys` also holds keys of nodes too broken to parse, so connections naming them are not
 * reported a second time.
 */
function parseNodes(input: unknown[], problems: Problems) {
  const results = input.map((raw, index) => parseNode(raw, index, problems));
  const knownKeys = new Set(results.flatMap(({ knownKey }) => knownKey ?? []));
  const byKey = new Map<string, Entry>();
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const [index, { parsed, knownKey }] of results.entries()) {
    if (knownKey !== undefined && seen.has(knownKey)) {
      const message = `Another node already has the key "${knownKey}".`;
      problems.push({ field: `nodes[${index}].key`, code: "duplicate_key", message });
    }
    if (knownKey !== undefined) seen.add(knownKey);
    if (!parsed) continue;
    const key = parsed.explicitKey ?? nextKey(parsed.type, knownKeys);
    knownKeys.add(key);
    const entry = { ...parsed, key, view: { ...parsed.view, key } };
    entries.push(entry);
    if (!byKey.has(key)) byKey.set(key, entry);
  }
  return { entries, byKey, knownKeys };
}

/** Checks the connections; returns those whose both ends are parsed nodes (for graph checks). */
function parseConnections(
  input: unknown[],
  byKey: Map<string, Entry>,
  knownKeys: Set<string> | undefined,
  problems: Problems,
): Connection[] {
  const edges: Connection[] = [];
  const seen = new Set<string>();
  for (const [j, raw] of input.entries()) {
    const path = `connections[${j}]`;
    const verdict = judge({ schema: ConnectionSchema }, raw);
    if (!verdict.ok) report(problems, path, verdict.problems);
    const given = isPlainObject(raw) ? raw : {};
    const add = (field: string, code: DetailCode, message: string) =>
      problems.push({ field: field ? `${path}.${field}` : path, code, message });
    const [from, to] = (["from", "to"] as const).map((end) => {
      const key = given[end];
      if (typeof key !== "string" || !knownKeys || knownKeys.has(key)) {
        return typeof key === "string" ? key : undefined;
      }
      add(end, "unknown_node", `No node has the key "${key}".`);
      return undefined;
    });
    const hasBranch = Object.hasOwn(given, "branch");
    const branch = BRANCHES.find((each) => each === given.branch);
    const source = from === undefined ? undefined : byKey.get(from);
    const target = to === undefined ? undefined : byKey.get(to);
    const branches = source ? branchesOf(source.type) : [];
    if (source && branches.length > 0 && !hasBranch) {
      const named = branches.map((each) => `"${each}"`).join(" or ");
      const message = `Connections leaving ${source.type} "${from}" need a branch: ${named}.`;
      add("branch", "missing_branch", message);
    } else if (source && hasBranch && branch !== undefined && !branches.includes(branch)) {
      const message =
        branches.length === 0
          ? `Only connections leaving a condition or ask_person have a branch.`
          : `A ${source.type}'s branch is ${branches.map((each) => `"${each}"`).join(" or ")}.`;
      add("branch", "unexpected_branch", message);
    }
    if (target && isTriggerNode(target)) {
      add("to", "trigger_has_input", `"${to}" is a trigger; nothing may connect into it.`);
    }
    const signature = JSON.stringify([from, to, branch ?? null]);
    if (from !== undefined && to !== undefined && seen.has(signature)) {
      add("", "duplicate_connection", "The same connection appears twice.");
    }
    seen.add(signature);
    if (source && target && from !== undefined && to !== undefined) {
      edges.push(branch === undefined ? { from, to } : { from, to, branch });
    }
  }
  return edges;
}

/** Every cycle met by a depth-first walk (one per back edge), as the keys along it. */
function findCycles(keys: string[], edges: Connection[]): string[][] {
  const next = neighbours(edges, "forward");
  const marks = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (key: string) => {
    marks.set(key, "open");
    stack.push(key);
    for (const target of next.get(key) ?? []) {
      if (marks.get(target) === "open") cycles.push(stack.slice(stack.indexOf(target)));
      else if (!marks.has(target)) visit(target);
    }
    stack.pop();
    marks.set(key, "done");
  };
  for (const key of keys) if (!marks.has(key)) visit(key);
  return cycles;
}

function forEachString(value: unknown, path: string, visit: (path: string, text: string) => void) {
  if (typeof value === "string") visit(path, value);
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) forEachString(item, `${path}[${i}]`, visit);
  else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) forEachString(item, `${path}.${key}`, visit);
  }
}

/** Templates may read only nodes that come before (are ancestors of) the node using them. */
function checkReferences(entries: Entry[], byKey: Map<string, Entry>, edges: Connection[]) {
  const problems: Problems = [];
  const previous = neighbours(edges, "backward");
  for (const { view: node, index, key } of entries) {
    const ancestors = ancestorsOf(key, previous);
    for (const [setting, value] of templatedSettings(node)) {
      forEachString(value, `nodes[${index}].${setting}`, (field, text) => {
        for (const ref of templateReferences(text)) {
          // A webhook's dedupe key and reply read the call they are about: its own output, and
          // only that. Replies (a webhook's, a respond node's) may also read the execution's id.
          const readable = node.type === "webhook" ? ref === key : ancestors.has(ref);
          const replies = node.type === "webhook" || node.type === "respond";
          if (readable || (replies && ref === EXECUTION_SCOPE)) continue;
          const message = !byKey.has(ref)
            ? `The template refers to "${ref}", which is not the key of any node.`
            : ref === key
              ? `The template refers to "${ref}", this node's own output.`
              : `The template refers to "${ref}", which does not come before this node.`;
          problems.push({ field, code: "invalid_reference", message });
        }
      });
    }
  }
  return problems;
}

/**
 * A problem (respond_unreachable) for every respond node that no webhook with responseMode
 * `responseNode` leads to: such a node would answer nothing (docs/webhooks.md#respond-node).
 */
function unreachableResponds(entries: Entry[], edges: Connection[]): Problems {
  const previous = neighbours(edges, "backward");
  const answering = entries.flatMap(({ view, key }) =>
    view.type === "webhook" && view.responseMode === "responseNode" ? [key] : [],
  );
  return entries.flatMap(({ type, key, index }) => {
    if (type !== "respond" || [...ancestorsOf(key, previous)].some((k) => answering.includes(k))) {
      return [];
    }
    const message = `No webhook with responseMode "responseNode" leads to "${key}".`;
    return [{ field: `nodes[${index}]`, code: "respond_unreachable", message }];
  });
}

/**
 * Validates `{nodes, connections}` (untrusted JSON) against docs/api/webhooks.md#definition.
 * Returns the definition with defaults filled in (fresh plain objects, nodes in input order), or
 * every problem found, each with a field path such as `nodes[2].httpMethod` and a code of
 * docs/errors.md#invalid-request or of the graph (unknown_node_type, invalid_key, duplicate_key,
 * unknown_node, no_trigger, trigger_has_input, cycle, invalid_reference, invalid_http_method,
 * missing_branch, unexpected_branch, duplicate_connection; for replies invalid_header,
 * refused_header, too_large, not_allowed, missing_location, respond_unreachable). Never throws.
 */
export function parseDefinition(input: {
  nodes: unknown;
  connections: unknown;
}): { ok: true; definition: WorkflowDefinition } | { ok: false; problems: DefinitionProblem[] } {
  const problems: Problems = [];
  const lists = judge({ schema: Lists }, input);
  if (!lists.ok) report(problems, "", lists.problems);
  const nodesOk = Array.isArray(input.nodes);
  // A copy, so the definition shares nothing with the caller's input.
  const rawNodes = nodesOk ? (cloneJson(input.nodes) as unknown[]) : [];
  const { entries, byKey, knownKeys } = parseNodes(rawNodes, problems);
  if (nodesOk && !entries.some(isTriggerNode)) {
    const message = "A workflow needs a webhook or conversation_event node to start it.";
    problems.push({ field: "nodes", code: "no_trigger", message });
  }
  const rawConnections = Array.isArray(input.connections) ? input.connections : [];
  // When nodes is not even an array, naming "unknown" nodes would only repeat that problem.
  const edges = parseConnections(rawConnections, byKey, nodesOk ? knownKeys : undefined, problems);
  for (const cycle of findCycles([...byKey.keys()], edges)) {
    const message = `The connections form a cycle: ${[...cycle, cycle[0]].join(" -> ")}.`;
    problems.push({ field: "connections", code: "cycle", message });
  }
  problems.push(...checkReferences(entries, byKey, edges), ...unreachableResponds(entries, edges));
  if (problems.length > 0) return { ok: false, problems };
  const nodes = entries.map(({ key, node }) => ({ key, ...node }) as WorkflowNode);
  return { ok: true, definition: { nodes, connections: edges } };
}
