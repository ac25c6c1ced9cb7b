/**
 * Sticky notes on the canvas (docs/dashboard.md#workflow-editor): saved with the definition as
 * `notes` (`{key, text, position, size?}`, at most 100) and ignored by runs. On the canvas each is
 * a React Flow node of type `note` whose id is `note:<key>`.
 */
import type { Node } from "@xyflow/react";
import { readPosition } from "./layout";

/** A note as the API takes it. */
export type Note = {
  key: string;
  text: string;
  position: { x: number; y: number };
  size?: { width: number; height: number };
};

export type NoteNode = Node<{ text: string }, "note">;

/** The most notes a workflow keeps, as the API allows. */
export const MAX_NOTES = 100;
/** The longest note, as the API allows. */
export const MAX_NOTE_TEXT = 5000;
const DEFAULT_SIZE = { width: 220, height: 140 };

/** Whether canvas node `id` is a note. */
export const isNoteId = (id: string) => id.startsWith("note:");

/** The canvas notes of a saved workflow. */
export function notesOf(workflow: { notes: Note[] }): NoteNode[] {
  return workflow.notes.map((note) => noteNode(note));
}

/** The canvas node of `note`, drawn behind the workflow's nodes. */
export function noteNode(note: Note): NoteNode {
  const size = note.size ?? DEFAULT_SIZE;
  return {
    id: `note:${note.key}`,
    type: "note",
    position: readPosition(note.position) ?? { x: 0, y: 0 },
    data: { text: note.text },
    width: size.width,
    height: size.height,
    zIndex: -1,
    ariaLabel: "Note",
  };
}

/** The notes as PUT /v1/manage/workflows/{id} takes them. */
export function toNotes(nodes: NoteNode[]): Note[] {
  return nodes.map((node) => {
    const width = node.width ?? node.measured?.width;
    const height = node.height ?? node.measured?.height;
    const note: Note = {
      key: node.id.slice("note:".length),
      text: node.data.text,
      position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
    };
    if (width && height) note.size = { width: Math.round(width), height: Math.round(height) };
    return note;
  });
}

/** A new note's key: `note_<n>` with the smallest n not taken. */
export function nextNoteKey(nodes: NoteNode[]): string {
  const taken = new Set(nodes.map((node) => node.id));
  let n = 1;
  // Bounded: n passes at most one number per note.
  while (taken.has(`note:note_${n}`) && n <= nodes.length) n++;
  return `note_${n}`;
}
