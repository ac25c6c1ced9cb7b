/**
 * The workflow canvas (docs/dashboard.md#workflow-editor), React Flow: nodes are dragged to place
 * them, connected by dragging from an output handle to an input (a condition's true or false
 * handle gives the branch), removed with Delete; node types dropped from the palette land where
 * they are dropped. Refused connections are said in words, as the panel's form says them.
 */
import {
  Background,
  type Connection,
  Controls,
  type NodeTypes,
  ReactFlow,
  useReactFlow,
  useStore,
} from "@xyflow/react";
import { type DragEvent, useState } from "react";
import { isNodeType } from "../../../../workflows/nodes";
import { WorkflowNodeView } from "./CanvasNode";
import { DRAG_TYPE } from "./Palette";
import type { EditorState } from "./use-editor";

// Module-level: React Flow re-mounts every node when this object changes identity.
const NODE_VIEWS: NodeTypes = { workflow: WorkflowNodeView };

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

/** The canvas of `editor`; read-only (nothing moves or connects) unless `canChange`. */
export function Canvas({ editor, canChange }: { editor: EditorState; canChange: boolean }) {
  const flow = useReactFlow();
  const [said, setSaid] = useState("");
  const drop = (event: DragEvent) => {
    event.preventDefault();
    const type = event.dataTransfer.getData(DRAG_TYPE);
    if (!canChange || !isNodeType(type)) return;
    editor.addNode(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };
  const connect = (connection: Connection) => {
    setSaid(editor.connect(connection.source, connection.target, connection.sourceHandle));
  };
  return (
    <div className="canvas">
      <ReactFlow
        nodes={editor.nodes}
        edges={editor.edges}
        nodeTypes={NODE_VIEWS}
        onNodesChange={editor.onNodesChange}
        onEdgesChange={editor.onEdgesChange}
        onConnect={connect}
        isValidConnection={(c) => editor.refusal(c.source, c.target, c.sourceHandle) === ""}
        onNodeClick={(_, node) => editor.setSelected(node.id)}
        onSelectionChange={({ nodes }) => {
          if (nodes[0]) editor.setSelected(nodes[0].id);
        }}
        nodesDraggable={canChange}
        nodesConnectable={canChange}
        deleteKeyCode={canChange ? ["Backspace", "Delete"] : null}
        colorMode="system"
        fitView
        fitViewOptions={{ maxZoom: 1 }}
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
      </ReactFlow>
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </div>
  );
}
