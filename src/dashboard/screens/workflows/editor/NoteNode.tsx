/**
 * A sticky note on the canvas (docs/dashboard.md#workflow-editor; notes.ts): dragged by its top
 * strip, resized by its corners when selected, its text typed in place (plain text; runs ignore
 * it). Read-only for those who cannot change the workflow.
 */
import { type NodeProps, NodeResizer } from "@xyflow/react";
import { createContext, memo, useContext } from "react";
import { MAX_NOTE_TEXT, type NoteNode } from "./notes";

/** What a note can do: change its text (absent when read-only). */
export const NoteActions = createContext<{ update?: (id: string, text: string) => void }>({});

/** The canvas's note node type, registered as `note`. */
export const NoteView = memo(function NoteView({ id, data, selected }: NodeProps<NoteNode>) {
  const { update } = useContext(NoteActions);
  return (
    <div className="wf-note">
      <NodeResizer isVisible={selected && Boolean(update)} minWidth={120} minHeight={60} />
      <span className="wf-note-strip" aria-hidden="true">
        Note
      </span>
      <textarea
        className="nodrag nowheel"
        aria-label="Note text"
        value={data.text}
        maxLength={MAX_NOTE_TEXT}
        readOnly={!update}
        placeholder="Write a note…"
        onChange={(event) => update?.(id, event.target.value)}
      />
    </div>
  );
});
