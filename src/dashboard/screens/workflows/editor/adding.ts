/**
 * Adding nodes on the canvas (docs/dashboard.md#workflow-editor): where a new node goes and what
 * it is connected from, which connections the API's rules allow, and copies of nodes pasted with
 * new keys and their connections among themselves. Pure: the editor's state (use-editor.ts) applies the result.
 */
import type { Edge } from "@xyflow/react";
import {
  type Branch,
  branchesOf,
  DEFAULT_NAMES,
  isTriggerNode,
  type NodeType,
  nextKey,
} from "../../../../workflows/nodes";
import { freeSpot, overlaps, type Point, STEP } from "./layout";
import {
  type CanvasNode,
  type Connection,
  canvasEdge,
  canvasNode,
  type NodeJson,
  toDefinition,
} from "./model";

/** Where an added node goes, and the connection into it, if any. */
export type Placement = { position: Point; from?: { source: string; branch?: Branch } };

/**
 * Where a `type` node added now goes: right of the selected node and connected from it (a
 * condition's or ask_person's first branch with no connection yet; never into a trigger), else at the free place
 * nearest `inView`; either way moved down until it covers no node.
 */
export function placeAdded(
  nodes: CanvasNode[],
  edges: Edge[],
  selectedId: string | null,
  type: NodeType,
  inView: Point,
): Placement {
  const taken = nodes.map((node) => node.position);
  const selected = nodes.find((node) => node.id === selectedId);
  if (!selected || isTriggerNode({ type })) return { position: freeSpot(inView, taken) };
  const position = freeSpot({ x: selected.position.x + STEP.x, y: selected.position.y }, taken);
  const branches = branchesOf(selected.data.node.type) as readonly Branch[];
  if (branches.length === 0) return { position, from: { source: selected.id } };
  const used = new Set(edges.filter((e) => e.source === selected.id).map((e) => e.sourceHandle));
  const branch = branches.find((each) => !used.has(each));
  return branch ? { position, from: { source: selected.id, branch } } : { position };
}

/** Copied nodes (with their positions) and the connections among them, by key. */
export type Clip = { nodes: NodeJson[]; connections: Connection[] };

/** A copy of the nodes `ids` and of the connections between two of them. */
export function copyOf(nodes: CanvasNode[], edges: Edge[], ids: Set<string>): Clip {
  return toDefinition(
    nodes.filter((node) => ids.has(node.id)),
    edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)),
  );
}

/**
 * `clip` pasted beside `existing`: each node a new key (`<type>_<n>`, none taken) and a new id
 * (`n<firstId>`, `n<firstId + 1>`, …), its connections and its templates that read a copied node
 * following the new keys, the whole group
 * moved down by rows until none of it covers an existing node.
 */
export function pasted(
  clip: Clip,
  existing: CanvasNode[],
  firstId: number,
): { nodes: CanvasNode[]; edges: Edge[] } {
  const taken = existing.map((node) => node.data.node.key);
  const ids = new Map<string, string>();
  const corners = clip.nodes.map((node) => node.position as Point);
  const occupied = existing.map((node) => node.position);
  let shift = { x: STEP.y / 3, y: STEP.y };
  // Bounded: an existing box blocks each copied node for at most two rows.
  for (let row = 1; row <= 2 * occupied.length * corners.length + 1; row++) {
    shift = { x: STEP.y / 3, y: row * STEP.y };
    const moved = corners.map((p) => ({ x: p.x + shift.x, y: p.y + shift.y }));
    if (!moved.some((p) => occupied.some((other) => overlaps(p, other)))) break;
  }
  const keys = new Map<string, string>();
  for (const json of clip.nodes) {
    const key = nextKey(json.type, taken);
    taken.push(key);
    keys.set(json.key, key);
  }
  const nodes = clip.nodes.map((json, i) => {
    const id = `n${firstId + i}`;
    ids.set(json.key, id);
    const corner = corners[i] ?? { x: 0, y: 0 };
    const at = { x: corner.x + shift.x, y: corner.y + shift.y };
    const copy = { ...rekeyed(json, keys), key: keys.get(json.key) ?? json.key };
    return { ...canvasNode(id, copy, at), selected: true };
  });
  const edges = clip.connections.flatMap(({ from, to, branch }) => {
    const source = ids.get(from);
    const target = ids.get(to);
    return source && target ? [canvasEdge(source, target, branch)] : [];
  });
  return { nodes, edges };
}

/**
 * `json` with its templates that read a copied node (`{{set_1.field}}`) reading that node's copy
 * instead (`{{set_2.field}}`), as the connections among the copies do.
 */
function rekeyed(json: NodeJson, keys: Map<string, string>): NodeJson {
  if (keys.size === 0) return json;
  const olds = [...keys.keys()].map((key) => key.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"));
  // One pass: a new key may be another copied node's old one (pasted into another workflow).
  const reads = new RegExp(`(\\{\\{\\s*)(${olds.join("|")})(?=[.\\s}])`, "g");
  const text = JSON.stringify(json).replace(reads, (_, open: string, old: string) => {
    return `${open}${keys.get(old) ?? old}`;
  });
  return JSON.parse(text) as NodeJson;
}

/**
 * Why `source` → `target` (on `branch`) cannot be connected, or "" when it can: the API's rules
 * (no input into a trigger, a branch on every connection leaving a condition or ask_person, no
 * repeats), told
 * before saving.
 */
export function refusalOf(
  nodes: CanvasNode[],
  edges: Edge[],
  source: string,
  target: string,
  branch?: string | null,
): string {
  const from = nodes.find((node) => node.id === source)?.data.node;
  const to = nodes.find((node) => node.id === target)?.data.node;
  if (!from || !to || source === target) return "A node cannot lead to itself.";
  if (isTriggerNode(to)) return "A trigger starts executions; nothing leads into it.";
  const branches = branchesOf(from.type);
  if (branches.length > 0 && !branches.includes(branch ?? "")) {
    return `Choose the ${DEFAULT_NAMES[from.type].toLowerCase()}'s branch: ${branches.join(" or ")}.`;
  }
  const handle = branches.length > 0 ? branch : null;
  const repeat = edges.some(
    (edge) =>
      edge.source === source && edge.target === target && (edge.sourceHandle ?? null) === handle,
  );
  return repeat ? "These nodes are connected already." : "";
}
