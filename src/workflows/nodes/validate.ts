/**
 * Validation of an untrusted workflow definition (docs/api/webhooks.md, spec 2.5): every problem is reported at
 * once, and a valid definition comes back as a fresh object with every default filled in.
 */

import { ancestorsOf, neighbours } from "../engine/graph";
import { isPlainObject, templateReferences } from "../engine/template";
import { templatedSettings } from "./templated-settings";
import {
  type Connection,
  type DefinitionProblem,
  TRIGGER_TYPES,
  type WorkflowDefinition,
  type WorkflowNode,
} from "./types";
import { parseNode } from "./validate-node";
import { EXECUTION_SCOPE } from "./validate-reply";
import { unreachableResponds } from "./validate-respond";

const MAX_NODES = 100;
const MAX_CONNECTIONS = 500;
const CONNECTION_FIELDS = ["from", "to", "branch"];

type Entry = { node: WorkflowNode; index: number };
type Problems = DefinitionProblem[];

/** True for node types that start executions (webhook, conversation_event). */
export function isTriggerNode(node: WorkflowNode): boolean {
  return (TRIGGER_TYPES as readonly string[]).includes(node.type);
}

/**
 * Parses every node, then gives each its final key: explicit keys as written, keyless nodes
 * `<type>_<n>` with the smallest n no other node uses (spec 2.5: the first webhook is `webhook_1`).
 * `knownKeys` also holds keys of nodes too broken to parse, so connections naming them are not
 * reported a second time.
 */
function parseNodes(input: unknown[], problems: Problems) {
  const results = input.map((raw, index) => ({ index, ...parseNode(raw, index, problems) }));
  const knownKeys = new Set<string>();
  for (const { knownKey } of results) if (knownKey !== undefined) knownKeys.add(knownKey);

  const byKey = new Map<string, Entry>();
  const seen = new Set<string>();
  const taken = new Set(knownKeys);
  for (const { index, parsed, knownKey } of results) {
    if (knownKey !== undefined) {
      if (seen.has(knownKey)) {
        problems.push({
          field: `nodes[${index}].key`,
          code: "duplicate_key",
          message: `Another node already has the key "${knownKey}".`,
        });
      }
      seen.add(knownKey);
    }
    if (!parsed) continue;
    let key = parsed.explicitKey;
    if (key === undefined) {
      let n = 1;
      while (taken.has(`${parsed.node.type}_${n}`)) n++;
      key = `${parsed.node.type}_${n}`;
      taken.add(key);
      knownKeys.add(key);
    }
    parsed.node.key = key;
    if (!byKey.has(key)) byKey.set(key, { node: parsed.node, index });
  }
  const entries = results.flatMap(({ parsed, index }) =>
    parsed ? [{ node: parsed.node, index }] : [],
  );
  return { entries, byKey, knownKeys };
}

function endpoint(
  raw: Record<string, unknown>,
  field: "from" | "to",
  path: string,
  knownKeys: Set<string> | undefined,
  problems: Problems,
): string | undefined {
  const value = raw[field];
  const report = (code: string, message: string) =>
    problems.push({ field: `${path}.${field}`, code, message });
  if (!Object.hasOwn(raw, field)) report("required", `${field} is required.`);
  else if (typeof value !== "string") report("invalid_type", `${field} must be a node key.`);
  else if (knownKeys && !knownKeys.has(value))
    report("unknown_node", `No node has the key "${value}".`);
  else return value;
  return undefined;
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
    const report = (field: string, code: string, message: string) => {
      problems.push({ field: field ? `${path}.${field}` : path, code, message });
    };
    if (!isPlainObject(raw)) {
      report("", "invalid_type", "A connection must be an object.");
      continue;
    }
    for (const field of Object.keys(raw)) {
      if (!CONNECTION_FIELDS.includes(field)) {
        report(field, "unknown_field", `${field} is not a connection field; use from, to, branch.`);
      }
    }
    const from = endpoint(raw, "from", path, knownKeys, problems);
    const to = endpoint(raw, "to", path, knownKeys, problems);
    let branch: "true" | "false" | undefined;
    if (Object.hasOwn(raw, "branch")) {
      if (typeof raw.branch !== "string")
        report("branch", "invalid_type", "branch must be a string.");
      else if (raw.branch !== "true" && raw.branch !== "false") {
        report("branch", "invalid_option", 'branch must be "true" or "false".');
      } else branch = raw.branch;
    }
    const source = from === undefined ? undefined : byKey.get(from)?.node;
    const target = to === undefined ? undefined : byKey.get(to)?.node;
    if (source?.type === "condition" && !Object.hasOwn(raw, "branch")) {
      report("branch", "missing_branch", `Connections leaving condition "${from}" need a branch.`);
    } else if (source && source.type !== "condition" && Object.hasOwn(raw, "branch")) {
      report("branch", "unexpected_branch", `Only connections leaving a condition have a branch.`);
    }
    if (target && isTriggerNode(target)) {
      report("to", "trigger_has_input", `"${to}" is a trigger; nothing may connect into it.`);
    }
    const signature = JSON.stringify([from, to, branch ?? null]);
    if (from !== undefined && to !== undefined && seen.has(signature)) {
      report("", "duplicate_connection", "The same connection appears twice.");
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
  for (const { node, index } of entries) {
    const ancestors = ancestorsOf(node.key, previous);
    for (const [setting, value] of templatedSettings(node)) {
      forEachString(value, `nodes[${index}].${setting}`, (field, text) => {
        for (const ref of templateReferences(text)) {
          // A webhook's dedupe key and reply read the call they are about: its own output, and
          // only that. Replies (a webhook's, a respond node's) may also read the execution's id.
          const readable = node.type === "webhook" ? ref === node.key : ancestors.has(ref);
          const replies = node.type === "webhook" || node.type === "respond";
          if (readable || (replies && ref === EXECUTION_SCOPE)) continue;
          const message = !byKey.has(ref)
            ? `The template refers to "${ref}", which is not the key of any node.`
            : ref === node.key
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
 * Validates `{nodes, connections}` (untrusted JSON) against docs/api/webhooks.md. Returns the definition with
 * defaults filled in (fresh plain objects, nodes in input order), or every problem found, each with a
 * field path such as `nodes[2].httpMethod` and one of the codes documented in the workflow brief
 * (invalid_type, required, unknown_field, unknown_node_type, invalid_key, duplicate_key, unknown_node,
 * no_trigger, trigger_has_input, cycle, invalid_reference, invalid_http_method, invalid_option,
 * out_of_range, missing_branch, unexpected_branch, duplicate_connection; for replies invalid_header,
 * refused_header, too_large, not_allowed, missing_location, respond_unreachable). Never throws.
 */
export function parseDefinition(input: {
  nodes: unknown;
  connections: unknown;
}): { ok: true; definition: WorkflowDefinition } | { ok: false; problems: DefinitionProblem[] } {
  const problems: Problems = [];
  const nodesOk = Array.isArray(input.nodes);
  if (!nodesOk)
    problems.push({ field: "nodes", code: "invalid_type", message: "nodes must be an array." });
  const rawNodes: unknown[] = Array.isArray(input.nodes) ? input.nodes : [];
  if (rawNodes.length > MAX_NODES) {
    problems.push({ field: "nodes", code: "out_of_range", message: `At most ${MAX_NODES} nodes.` });
  }
  const { entries, byKey, knownKeys } = parseNodes(rawNodes, problems);
  if (nodesOk && !entries.some(({ node }) => isTriggerNode(node))) {
    problems.push({
      field: "nodes",
      code: "no_trigger",
      message: "A workflow needs a webhook or conversation_event node to start it.",
    });
  }

  const rawConnections: unknown[] = Array.isArray(input.connections) ? input.connections : [];
  if (!Array.isArray(input.connections)) {
    problems.push({
      field: "connections",
      code: "invalid_type",
      message: "connections must be an array.",
    });
  } else if (rawConnections.length > MAX_CONNECTIONS) {
    problems.push({
      field: "connections",
      code: "out_of_range",
      message: `At most ${MAX_CONNECTIONS} connections.`,
    });
  }
  // When nodes is not even an array, naming "unknown" nodes would only repeat that problem.
  const edges = parseConnections(rawConnections, byKey, nodesOk ? knownKeys : undefined, problems);

  for (const cycle of findCycles([...byKey.keys()], edges)) {
    problems.push({
      field: "connections",
      code: "cycle",
      message: `The connections form a cycle: ${[...cycle, cycle[0]].join(" -> ")}.`,
    });
  }
  problems.push(...checkReferences(entries, byKey, edges), ...unreachableResponds(entries, edges));

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, definition: { nodes: entries.map(({ node }) => node), connections: edges } };
}
