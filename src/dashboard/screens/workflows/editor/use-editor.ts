/**
 * The canvas editor's state (docs/dashboard.md#workflow-editor): the nodes and connections being
 * edited, the selected node, whether anything changed since the last save, and the problems the
 * API found on the last save, on the nodes they name. Connections follow the API's rules: no
 * input into a trigger, a branch on every connection leaving a condition, no repeats.
 */
import {
  type Edge,
  type EdgeChange,
  type NodeChange,
  useEdgesState,
  useNodesState,
} from "@xyflow/react";
import { useCallback, useState } from "react";
import type { NodeType } from "../../../../workflows/nodes";
import type { ErrorDetail, Schemas } from "../../../api";
import { isTrigger } from "./CanvasNode";
import { stillStanding } from "./fields";
import {
  type CanvasNode,
  canvasEdge,
  canvasNode,
  fromWorkflow,
  layout,
  type NodeJson,
  nextKey,
  sortProblems,
  toDefinition,
} from "./model";

/** Where a node added from the palette goes: right of the rightmost node. */
function freePlace(nodes: CanvasNode[]): { x: number; y: number } {
  if (nodes.length === 0) return { x: 0, y: 0 };
  const right = Math.max(...nodes.map((node) => node.position.x));
  const top = Math.min(...nodes.map((node) => node.position.y));
  return { x: right + 240, y: top };
}

const near = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) < 40 && Math.abs(a.y - b.y) < 40;

/** Changes that alter the definition; selection and measuring do not. */
const alters = (change: NodeChange | EdgeChange) =>
  change.type === "remove" || change.type === "add" || change.type === "position";

/** The editor of `workflow`, started from its saved definition. */
export function useEditor(workflow: Schemas["Workflow"]) {
  const [initial] = useState(() => fromWorkflow(workflow));
  const [nodes, setNodes, changeNodes] = useNodesState<CanvasNode>(initial.nodes);
  const [edges, setEdges, changeEdges] = useEdgesState<Edge>(initial.edges);
  const [selected, setSelected] = useState<string | null>(initial.nodes[0]?.id ?? null);
  const [dirty, setDirty] = useState(false);
  const [general, setGeneral] = useState<string[]>([]);
  const [counter, setCounter] = useState(initial.nodes.length);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      changeNodes(changes);
      if (changes.some(alters)) setDirty(true);
    },
    [changeNodes],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      changeEdges(changes);
      if (changes.some(alters)) setDirty(true);
    },
    [changeEdges],
  );

  /** Adds a `type` node (at `position`, or beside the others) and selects it. */
  const addNode = (type: NodeType, position?: { x: number; y: number }) => {
    const id = `n${counter}`;
    setCounter(counter + 1);
    const key = nextKey(
      type,
      nodes.map((node) => node.data.node.key),
    );
    const place = { ...(position ?? freePlace(nodes)) };
    // Never exactly on another node: added twice in a row, the second goes below the first.
    while (nodes.some((node) => near(node.position, place))) place.y += 90;
    const added = { ...canvasNode(id, { key, type }, place), selected: true };
    // React Flow's own selection too, or its next selection event would select the old node again.
    setNodes([...nodes.map((node) => ({ ...node, selected: false })), added]);
    setSelected(id);
    setDirty(true);
  };

  /**
   * Replaces node `id`'s JSON (name, key, settings). The API's problems from the last save stay,
   * but for the settings this changes: the schema judges those now.
   */
  const updateNode = (id: string, json: NodeJson) => {
    setNodes((current) =>
      current.map((node) => {
        if (node.id !== id) return node;
        const problems = stillStanding(node.data.problems, node.data.node, json);
        return { ...node, data: { node: json, problems } };
      }),
    );
    setDirty(true);
  };

  /** Removes node `id` and its connections. */
  const removeNode = (id: string) => {
    setNodes(nodes.filter((node) => node.id !== id));
    setEdges(edges.filter((edge) => edge.source !== id && edge.target !== id));
    if (selected === id) setSelected(null);
    setDirty(true);
  };

  /**
   * Why `source` → `target` (on `branch`) cannot be connected, or "" when it can: the API's
   * rules, told before saving.
   */
  const refusal = (source: string, target: string, branch?: string | null): string => {
    const from = nodes.find((node) => node.id === source)?.data.node;
    const to = nodes.find((node) => node.id === target)?.data.node;
    if (!from || !to || source === target) return "A node cannot lead to itself.";
    if (isTrigger(to.type)) return "A trigger starts executions; nothing leads into it.";
    if (from.type === "condition" && branch !== "true" && branch !== "false") {
      return "Choose the condition's branch: true or false.";
    }
    const handle = from.type === "condition" ? branch : null;
    const repeat = edges.some(
      (edge) =>
        edge.source === source && edge.target === target && (edge.sourceHandle ?? null) === handle,
    );
    return repeat ? "These nodes are connected already." : "";
  };

  /** Connects `source` to `target` (a condition's `branch`); returns why not, or "". */
  const connect = (source: string, target: string, branch?: string | null): string => {
    const why = refusal(source, target, branch);
    if (why) return why;
    const from = nodes.find((node) => node.id === source)?.data.node;
    const handle = from?.type === "condition" ? (branch ?? undefined) : undefined;
    setEdges([...edges, canvasEdge(source, target, handle)]);
    setDirty(true);
    return "";
  };

  /** Tidy up: every node placed again in columns by its distance from the triggers. */
  const arrange = () => {
    const { nodes: json, connections } = toDefinition(nodes, edges);
    const places = layout(json, connections, true);
    setNodes(
      nodes.map((node) => ({ ...node, position: places.get(node.data.node.key) ?? node.position })),
    );
    setDirty(true);
  };

  /** Removes connection `edgeId`. */
  const disconnect = (edgeId: string) => {
    setEdges(edges.filter((edge) => edge.id !== edgeId));
    setDirty(true);
  };

  /** The definition to save, and the node ids in the order it lists them. */
  const definition = () => ({
    ...toDefinition(nodes, edges),
    order: nodes.map((node) => node.id),
  });

  /** After a save: the API's problems on their nodes (none when it was saved). */
  const showProblems = (problems: ErrorDetail[], order: string[], saved: boolean) => {
    const sorted = sortProblems(problems, order);
    setNodes((current) =>
      current.map((node) => ({
        ...node,
        data: { ...node.data, problems: sorted.byNode.get(node.id) ?? [] },
      })),
    );
    setGeneral(sorted.general);
    if (saved) setDirty(false);
  };

  return {
    nodes,
    edges,
    onNodesChange,
    onEdgesChange,
    selected,
    setSelected,
    dirty,
    general,
    addNode,
    updateNode,
    removeNode,
    connect,
    refusal,
    disconnect,
    arrange,
    definition,
    showProblems,
  };
}

/** The editor's state and actions (useEditor). */
export type EditorState = ReturnType<typeof useEditor>;
