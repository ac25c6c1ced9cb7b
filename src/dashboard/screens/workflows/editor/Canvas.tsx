/**
 * The workflow canvas (docs/dashboard.md#workflow-editor), React Flow: nodes are dragged to place
 * them, connected by dragging from an output handle to an input (a condition's true or false
 * handle gives the branch), several selected with a box (Shift+drag) or Ctrl/Cmd+click; node
 * types dropped from the palette land where they are dropped. Sticky notes sit behind the nodes.
 * A minimap and the zoom controls (fit view among them) stay in view. Refused connections are
 * said in words, as the panel's form says them.
 */
import {
  Background,
  type Connection,
  Controls,
  type FitViewOptions,
  MiniMap,
  type NodeTypes,
  ReactFlow,
  useReactFlow,
  useStore,
} from "@xyflow/react";
import { type DragEvent, useEffect, useMemo, useRef, useState } from "react";
import { isNodeType } from "../../../../workflows/nodes";
import { WorkflowNodeView } from "./CanvasNode";
import { NODE_SIZE } from "./layout";
import { NoteActions, NoteView } from "./NoteNode";
import { DRAG_TYPE } from "./Palette";
import { useRunState } from "./run-context";
import type { EditorState } from "./use-editor";

// Module-level: React Flow re-mounts every node when this object changes identity.
const NODE_VIEWS: NodeTypes = { workflow: WorkflowNodeView, note: NoteView };

/**
 * How the canvas fits the workflow in view: never zoomed past 100 %, and clear of the zoom
 * controls (bottom left) and the minimap (bottom right), which would otherwise cover nodes. On a
 * phone (editor.css hides the minimap under 900 px) the nodes get the room instead.
 */
export function fitOptions(): FitViewOptions {
  const narrow = window.matchMedia("(max-width: 900px)").matches;
  const padding = narrow
    ? ({ top: "8px", right: "8px", bottom: "8px", left: "48px" } as const)
    : ({ top: "32px", right: "32px", bottom: "150px", left: "64px" } as const);
  return { maxZoom: 1, padding };
}

// Small enough to leave the canvas to the nodes.
const MINIMAP = { width: 150, height: 100 };

// About half a node's size: a node placed "at" a point is centred on it.
const HALF_NODE = { x: 90, y: 35 };

/**
 * A function giving the point of the flow at the centre of the canvas as it is shown now, where
 * a node added from the palette goes (so it is in view however the canvas was panned).
 */
export function useViewCentre(): () => { x: number; y: number } | undefined {
  const flow = useReactFlow();
  const canvas = useStore((state) => state.domNode);
  return () => {
    if (!canvas) return undefined;
    const box = canvas.getBoundingClientRect();
    const centre = flow.screenToFlowPosition({
      x: box.left + box.width / 2,
      y: box.top + box.height / 2,
    });
    return { x: centre.x - HALF_NODE.x, y: centre.y - HALF_NODE.y };
  };
}

/**
 * A function that fits the workflow in view again when node `id` (just added) is not wholly in
 * view, so that a node added right of the last one never lands out of sight.
 */
export function useShowNode(): (id: string) => void {
  const flow = useReactFlow();
  const canvas = useStore((state) => state.domNode);
  return (id) =>
    // After React Flow has the node.
    requestAnimationFrame(() => {
      const node = flow.getNode(id);
      if (!node || !canvas) return;
      const box = canvas.getBoundingClientRect();
      const { x, y } = node.position;
      const a = flow.flowToScreenPosition({ x, y });
      const b = flow.flowToScreenPosition({ x: x + NODE_SIZE.width, y: y + NODE_SIZE.height });
      if (a.x >= box.left && a.y >= box.top && b.x <= box.right && b.y <= box.bottom) return;
      // All of the workflow in view, not only the new node: it was added after another.
      void flow.fitView(fitOptions());
    });
}

/** The canvas of `editor`; read-only (nothing moves or connects) unless `canChange`. */
export function Canvas({ editor, canChange }: { editor: EditorState; canChange: boolean }) {
  const flow = useReactFlow();
  const [said, setSaid] = useState("");
  const drop = (event: DragEvent) => {
    event.preventDefault();
    const type = event.dataTransfer.getData(DRAG_TYPE);
    if (!canChange || !isNodeType(type)) return;
    const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    editor.addNode(type, undefined, at);
  };
  const connect = (connection: Connection) => {
    setSaid(editor.connect(connection.source, connection.target, connection.sourceHandle));
  };
  const shown = useMemo(() => [...editor.notes, ...editor.nodes], [editor.notes, editor.nodes]);
  const notes = { update: canChange ? editor.updateNote : undefined };
  // Until the person pans or zooms, the workflow stays fitted as the canvas changes size (the
  // bars above it fill in after it is drawn, and the window can change).
  const box = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const watcher = new ResizeObserver(() => {
      if (!moved.current) void flow.fitView(fitOptions());
    });
    watcher.observe(element);
    return () => watcher.disconnect();
  }, [flow]);
  // A run chosen for the canvas makes its nodes taller: the workflow is fitted again once the
  // badges are drawn (two frames: React Flow measures the nodes after they render).
  const run = useRunState();
  const shownRun = run?.execution ? run.chosen : null;
  useEffect(() => {
    if (!shownRun) return;
    requestAnimationFrame(() => requestAnimationFrame(() => void flow.fitView(fitOptions())));
  }, [shownRun, flow]);
  return (
    <div className="canvas" ref={box}>
      <NoteActions.Provider value={notes}>
        <ReactFlow
          nodes={shown}
          edges={editor.edges}
          nodeTypes={NODE_VIEWS}
          onNodesChange={editor.onNodesChange}
          onEdgesChange={editor.onEdgesChange}
          onConnect={connect}
          isValidConnection={(c) => editor.refusal(c.source, c.target, c.sourceHandle) === ""}
          onNodeClick={(_, node) => {
            if (node.type === "workflow") editor.setSelected(node.id);
          }}
          // A click on the empty canvas lets go of the node: the next one added goes in view.
          onPaneClick={() => editor.setSelected(null)}
          onSelectionChange={({ nodes }) => {
            const first = nodes.find((node) => node.type === "workflow");
            if (first) editor.setSelected(first.id);
          }}
          nodesDraggable={canChange}
          nodesConnectable={canChange}
          // Delete and Backspace are the editor's (shortcuts.ts), so that undo brings them back.
          deleteKeyCode={null}
          colorMode="system"
          fitView
          fitViewOptions={fitOptions()}
          // A pan or zoom by the person (an event; fitting has none) ends the automatic fitting.
          onMoveStart={(event) => {
            if (event) moved.current = true;
          }}
          minZoom={0.2}
          aria-label="Workflow canvas"
          onDrop={drop}
          onDragOver={(event) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = "move";
          }}
        >
          <Background />
          <Controls showInteractive={false} />
          <MiniMap pannable zoomable ariaLabel="Minimap of the workflow" style={MINIMAP} />
        </ReactFlow>
      </NoteActions.Provider>
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </div>
  );
}
