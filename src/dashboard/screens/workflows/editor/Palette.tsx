/**
 * The palette of node types (docs/dashboard.md#workflow-editor): a button per type adds one by
 * click or keyboard, and each can be dragged onto the canvas to drop it where it should go.
 */
import type { DragEvent } from "react";
import { DEFAULT_NAMES, NODE_TYPES, type NodeType } from "../../../../workflows/nodes/models";

/** The drag payload's type: the node type being dragged. */
export const DRAG_TYPE = "application/x-agent-edge-node";

/** `onAdd(type)` adds a node of `type` beside the others; dropping one is the canvas's job. */
export function Palette({ onAdd }: { onAdd: (type: NodeType) => void }) {
  const drag = (type: NodeType) => (event: DragEvent) => {
    event.dataTransfer.setData(DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = "move";
  };
  return (
    <section className="palette" aria-labelledby="palette-title">
      <h2 id="palette-title">Add a node</h2>
      <ul>
        {NODE_TYPES.map((type) => (
          <li key={type}>
            <button type="button" draggable onDragStart={drag(type)} onClick={() => onAdd(type)}>
              {DEFAULT_NAMES[type]}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
