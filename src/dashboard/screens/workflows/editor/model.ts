/**
 * The canvas editor's model (docs/dashboard.md#workflow-editor): a workflow's nodes and
 * connections as React Flow nodes and edges and back (nodes saved without a position laid out by
 * layout.ts), new nodes' keys, and the API's problems (`nodes[i].field`) by the node they name.
 */
import type { Edge, Node } from "@xyflow/react";
import { BRANCHES, type Branch } from "../../../../workflows/nodes";
import type { ErrorDetail, Schemas } from "../../../api";
import { detailText } from "../../../ui/problem-text";
import { labelsAnyType } from "./fields";
import { layout, type Point } from "./layout";
import type { FieldProblem, NodeJson } from "./node-json";

export type { FieldProblem, NodeJson } from "./node-json";

/** What a canvas node carries: its JSON and the problems the last save found in it. */
export type CanvasData = { node: NodeJson; problems: FieldProblem[] };
export type CanvasNode = Node<CanvasData, "workflow">;

/** A connection's branch is its source handle: a condition's or an ask_person's, else none. */
export type Connection = { from: string; to: string; branch?: Branch };

/** Whether `handle` names a branch (a source handle of a node with branches). */
export const isBranch = (handle: unknown): handle is Branch =>
  BRANCHES.some((branch) => branch === handle);

/** A new node's key, as the API would give it. */
export { nextKey } from "../../../../workflows/nodes";

/** A React Flow node for `node` at `position`; its id stays while its key is edited. */
export function canvasNode(id: string, node: NodeJson, position: Point): CanvasNode {
  const { position: _saved, ...json } = node;
  return {
    id,
    type: "workflow",
    position,
    data: { node: json as NodeJson, problems: [] },
    ariaLabel: `${json.name ?? json.type} (${json.type} node ${json.key})`,
  };
}

/** An edge from `source` to `target` node ids, on the branch when it has one. */
export function canvasEdge(source: string, target: string, branch?: string): Edge {
  const handle = isBranch(branch) ? branch : undefined;
  return {
    id: `${source}-${handle ?? "out"}-${target}`,
    source,
    target,
    sourceHandle: handle ?? null,
    label: handle,
  };
}

/** The canvas of a saved workflow: node ids `n0`, `n1`, … in the definition's order. */
export function fromWorkflow(workflow: Schemas["Workflow"]): {
  nodes: CanvasNode[];
  edges: Edge[];
} {
  const json = workflow.nodes as NodeJson[];
  const connections = workflow.connections as Connection[];
  const places = layout(json, connections);
  const ids = new Map(json.map((node, i) => [node.key, `n${i}`]));
  const nodes = json.map((node, i) =>
    canvasNode(`n${i}`, node, places.get(node.key) ?? { x: 0, y: 0 }),
  );
  const edges = connections.flatMap(({ from, to, branch }) => {
    const source = ids.get(from);
    const target = ids.get(to);
    return source && target ? [canvasEdge(source, target, branch)] : [];
  });
  return { nodes, edges };
}

/** The definition the canvas shows, as PUT /v1/manage/workflows/{id} takes it. */
export function toDefinition(
  nodes: CanvasNode[],
  edges: Edge[],
): { nodes: NodeJson[]; connections: Connection[] } {
  const keys = new Map(nodes.map((node) => [node.id, node.data.node.key]));
  return {
    nodes: nodes.map(({ data, position }) => ({
      ...data.node,
      position: { x: Math.round(position.x), y: Math.round(position.y) },
    })),
    connections: edges.flatMap((edge) => {
      const from = keys.get(edge.source);
      const to = keys.get(edge.target);
      if (!from || !to) return [];
      const branch = edge.sourceHandle;
      return [isBranch(branch) ? { from, to, branch } : { from, to }] as Connection[];
    }),
  };
}

const NODE_FIELD = /^nodes\[(\d+)\](?:\.(.+))?$/;

/**
 * Splits the problems of a refused save (`field` a path such as `nodes[2].url`): those naming a node (by its index in the saved order)
 * go to that node as `{field, message}` (field "" for the node as a whole); the rest stay general.
 * Messages are in plain words (problem-text.ts): a node's with its setting's label, a general one
 * with where it stands ("Connection 1: …").
 */
export function sortProblems(
  problems: ErrorDetail[],
  savedOrder: string[],
): { byNode: Map<string, FieldProblem[]>; general: string[] } {
  const byNode = new Map<string, FieldProblem[]>();
  const general: string[] = [];
  for (const problem of problems) {
    const match = NODE_FIELD.exec(problem.field ?? "");
    const id = match ? savedOrder[Number(match[1])] : undefined;
    if (!id) {
      general.push(detailText(problem));
      continue;
    }
    const field = match?.[2] ?? "";
    const list = byNode.get(id) ?? [];
    list.push({ field, message: detailText({ ...problem, field }, labelsAnyType()) });
    byNode.set(id, list);
  }
  return { byNode, general };
}
