/**
 * The palette of node types (docs/dashboard.md#workflow-editor): a search box ("type to add",
 * NodeSearch) and a button per type that adds one by click or keyboard; each can be dragged onto
 * the canvas to drop it where it should go. A note adds a sticky note to the canvas.
 */
import type { DragEvent, RefObject } from "react";
import { DEFAULT_NAMES, NODE_TYPES, type NodeType } from "../../../../workflows/nodes";
import { NodeSearch } from "./NodeSearch";

/** The drag payload's type: the node type being dragged. */
export const DRAG_TYPE = "application/x-agent-edge-node";

/** `onAdd(type)` adds a node of `type` (use-editor's rules); dropping one is the canvas's job. */
export function Palette(props: {
  onAdd: (type: NodeType) => void;
  onAddNote: () => void;
  searchRef: RefObject<HTMLInputElement | null>;
}) {
  const drag = (type: NodeType) => (event: DragEvent) => {
    event.dataTransfer.setData(DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = "move";
  };
  return (
    <section className="palette" aria-labelledby="palette-title">
      {/* The search's placeholder says what the row is for; the heading names the region. */}
      <h2 id="palette-title" className="visually-hidden">
        Add a node
      </h2>
      <NodeSearch onAdd={props.onAdd} inputRef={props.searchRef} />
      <ul>
        {NODE_TYPES.map((type) => (
          <li key={type}>
            <button
              type="button"
              draggable
              onDragStart={drag(type)}
              onClick={() => props.onAdd(type)}
            >
              {DEFAULT_NAMES[type]}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="note-button" onClick={props.onAddNote}>
            Note
          </button>
        </li>
      </ul>
    </section>
  );
}
