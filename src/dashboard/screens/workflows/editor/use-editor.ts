/**
 * The canvas editor's state (docs/dashboard.md#workflow-editor): the nodes, connections and notes
 * being edited, the selected node, whether anything changed since the last save, the problems the
 * API found on the last save (on the nodes they name), and undo and redo of every change.
 * Connections follow the API's rules: no input into a trigger, a branch on every connection
 * leaving a condition, no repeats.
 */
import {
  type Edge,
  type EdgeChange,
  type NodeChange,
  useEdgesState,
  useNodesState,
} from "@xyflow/react";
import { useRef, useState } from "react";
import type { NodeType } from "../../../../workflows/nodes";
import type { ErrorDetail, Schemas } from "../../../api";
import { type Clip, copyOf, pasted, placeAdded, refusalOf } from "./adding";
import { stillStanding } from "./fields";
import { History, undoTag } from "./history";
import { freeSpot, layout, type Point } from "./layout";
import {
  type CanvasNode,
  canvasEdge,
  canvasNode,
  fromWorkflow,
  type NodeJson,
  nextKey,
  sortProblems,
  toDefinition,
} from "./model";
import {
  isNoteId,
  MAX_NOTES,
  type NoteNode,
  nextNoteKey,
  noteNode,
  notesOf,
  toNotes,
} from "./notes";

/** What undo brings back: the whole canvas. */
type Snapshot = { nodes: CanvasNode[]; edges: Edge[]; notes: NoteNode[] };

// Module-level: what was copied can be pasted into another workflow's editor too.
let clipboard: Clip | undefined;

/** The editor of `workflow`, started from its saved definition. */
export function useEditor(workflow: Schemas["Workflow"]) {
  const [initial] = useState(() => ({ ...fromWorkflow(workflow), notes: notesOf(workflow) }));
  const [nodes, setNodes, changeNodes] = useNodesState<CanvasNode>(initial.nodes);
  const [edges, setEdges, changeEdges] = useEdgesState<Edge>(initial.edges);
  const [notes, setNotes, changeNotes] = useNodesState<NoteNode>(initial.notes);
  const [selected, setSelected] = useState<string | null>(initial.nodes[0]?.id ?? null);
  const [dirty, setDirty] = useState(false);
  const [general, setGeneral] = useState<string[]>([]);
  const [counter, setCounter] = useState(initial.nodes.length);
  const history = useRef(new History<Snapshot>()).current;

  /** Before a change: remember the canvas for undo, and mark it unsaved. */
  const record = (tag = "") => {
    history.record({ nodes, edges, notes }, tag);
    setDirty(true);
  };
  const restore = (snapshot: Snapshot | undefined) => {
    if (!snapshot) return;
    setNodes(snapshot.nodes);
    setEdges(snapshot.edges);
    setNotes(snapshot.notes);
    // The panel follows the selection brought back (a deleted node's, when undoing its removal).
    const back =
      snapshot.nodes.find((node) => node.selected) ??
      snapshot.nodes.find((node) => node.id === selected);
    setSelected(back?.id ?? null);
    setDirty(true);
  };

  const onNodesChange = (changes: NodeChange<CanvasNode | NoteNode>[]) => {
    const tag = undoTag(changes);
    if (tag !== undefined) record(tag);
    const onNotes = (change: NodeChange) => "id" in change && isNoteId(change.id);
    changeNotes(changes.filter(onNotes) as NodeChange<NoteNode>[]);
    changeNodes(changes.filter((change) => !onNotes(change)) as NodeChange<CanvasNode>[]);
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    if (changes.some((change) => change.type === "remove" || change.type === "add")) record();
    changeEdges(changes);
  };

  /** Puts `added` (and `links`) on the canvas, selected alone. */
  const put = (added: CanvasNode[], links: Edge[]) => {
    record();
    setNodes([...nodes.map((node) => ({ ...node, selected: false })), ...added]);
    setEdges([...edges, ...links]);
    setNotes(notes.map((note) => ({ ...note, selected: false })));
    setSelected(added[0]?.id ?? null);
    setCounter(counter + added.length);
  };

  /**
   * Adds a `type` node and selects it: dropped at `at`, else right of the selected node and
   * connected from it, else at a free place near `inView` (adding.ts). Returns its id.
   */
  const addNode = (type: NodeType, inView: Point = { x: 0, y: 0 }, at?: Point) => {
    const id = `n${counter}`;
    const key = nextKey(
      type,
      nodes.map((node) => node.data.node.key),
    );
    const place = at
      ? {
          position: freeSpot(
            at,
            nodes.map((node) => node.position),
          ),
        }
      : placeAdded(nodes, edges, selected, type, inView);
    const from = place.from;
    const links = from ? [canvasEdge(from.source, id, from.branch)] : [];
    // React Flow's own selection too, or its next selection event would select the old node again.
    put([{ ...canvasNode(id, { key, type }, place.position), selected: true }], links);
    return id;
  };

  /**
   * Replaces node `id`'s JSON (name, key, settings). The API's problems from the last save stay,
   * but for the settings this changes: the schema judges those now.
   */
  const updateNode = (id: string, json: NodeJson) => {
    record(`edit:${id}`);
    setNodes((current) =>
      current.map((node) => {
        if (node.id !== id) return node;
        const problems = stillStanding(node.data.problems, node.data.node, json);
        return { ...node, data: { node: json, problems } };
      }),
    );
  };

  /** Removes the nodes and notes `ids`, their connections and the connections `edgeIds`. */
  const remove = (ids: Set<string>, edgeIds = new Set<string>()) => {
    if (ids.size === 0 && edgeIds.size === 0) return;
    record();
    setNodes(nodes.filter((node) => !ids.has(node.id)));
    setNotes(notes.filter((note) => !ids.has(note.id)));
    setEdges(
      edges.filter(
        (edge) => !edgeIds.has(edge.id) && !ids.has(edge.source) && !ids.has(edge.target),
      ),
    );
    if (selected && ids.has(selected)) setSelected(null);
  };

  /** The selected nodes (React Flow's selection, else the one in the panel). */
  const selection = (): Set<string> => {
    const ids = new Set(nodes.filter((node) => node.selected).map((node) => node.id));
    if (ids.size === 0 && selected) ids.add(selected);
    return ids;
  };

  /** Delete or Backspace: the selected nodes, notes and connections go. */
  const removeSelection = () =>
    remove(
      new Set([...selection(), ...notes.filter((note) => note.selected).map((note) => note.id)]),
      new Set(edges.filter((edge) => edge.selected).map((edge) => edge.id)),
    );

  /** Copies the selected nodes and the connections among them; returns how many. */
  const copy = (): number => {
    const ids = selection();
    if (ids.size > 0) clipboard = copyOf(nodes, edges, ids);
    return ids.size;
  };

  /** Pastes what was copied: new keys, below the originals, selected. */
  const paste = () => {
    if (!clipboard || clipboard.nodes.length === 0) return;
    const copies = pasted(clipboard, nodes, counter);
    put(copies.nodes, copies.edges);
  };

  /** Copies and pastes the selection at once, leaving what was copied before. */
  const duplicate = () => {
    const ids = selection();
    if (ids.size === 0) return;
    const copies = pasted(copyOf(nodes, edges, ids), nodes, counter);
    put(copies.nodes, copies.edges);
  };

  /** Why `source` → `target` (on `branch`) cannot be connected, or "" (adding.ts). */
  const refusal = (source: string, target: string, branch?: string | null) =>
    refusalOf(nodes, edges, source, target, branch);

  /** Connects `source` to `target` (a condition's `branch`); returns why not, or "". */
  const connect = (source: string, target: string, branch?: string | null): string => {
    const why = refusal(source, target, branch);
    if (why) return why;
    const from = nodes.find((node) => node.id === source)?.data.node;
    const handle = from?.type === "condition" ? (branch ?? undefined) : undefined;
    record();
    setEdges([...edges, canvasEdge(source, target, handle)]);
    return "";
  };

  /** Tidy up: every node placed again by the layout (layout.ts). */
  const arrange = () => {
    const { nodes: json, connections } = toDefinition(nodes, edges);
    const places = layout(json, connections, true);
    record();
    setNodes(
      nodes.map((node) => ({ ...node, position: places.get(node.data.node.key) ?? node.position })),
    );
  };

  /** Removes connection `edgeId`. */
  const disconnect = (edgeId: string) => remove(new Set(), new Set([edgeId]));

  /** Adds an empty note at a free place near `inView`; false when there are MAX_NOTES. */
  const addNote = (inView: Point = { x: 0, y: 0 }): boolean => {
    if (notes.length >= MAX_NOTES) return false;
    const position = freeSpot(
      inView,
      [...nodes, ...notes].map((each) => each.position),
    );
    record();
    setNotes([...notes, noteNode({ key: nextNoteKey(notes), text: "", position })]);
    return true;
  };

  /** Changes note `id`'s text. */
  const updateNote = (id: string, text: string) => {
    record(`note:${id}`);
    setNotes((current) =>
      current.map((note) => (note.id === id ? { ...note, data: { text } } : note)),
    );
  };

  /** The definition to save (notes too), and the node ids in the order it lists them. */
  const definition = () => ({
    ...toDefinition(nodes, edges),
    notes: toNotes(notes),
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
    notes,
    onNodesChange,
    onEdgesChange,
    selected,
    setSelected,
    /** Selects nothing, so the panel shows the workflow's own settings. */
    deselect: () => {
      changeNodes(nodes.map((node) => ({ type: "select", id: node.id, selected: false })));
      setSelected(null);
    },
    dirty,
    general,
    addNode,
    updateNode,
    removeNode: (id: string) => remove(new Set([id])),
    removeSelection,
    copy,
    paste,
    duplicate,
    canUndo: history.canUndo,
    canRedo: history.canRedo,
    undo: () => restore(history.undo({ nodes, edges, notes })),
    redo: () => restore(history.redo({ nodes, edges, notes })),
    connect,
    refusal,
    disconnect,
    arrange,
    addNote,
    updateNote,
    definition,
    showProblems,
  };
}

/** The editor's state and actions (useEditor). */
export type EditorState = ReturnType<typeof useEditor>;
