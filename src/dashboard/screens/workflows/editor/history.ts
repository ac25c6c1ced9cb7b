/**
 * The editor's undo and redo (docs/dashboard.md#workflow-editor): snapshots of what the canvas
 * showed before each change, at most LIMIT of them. Changes with the same `tag` made within
 * MERGE_MS of each other (typing in one setting, one drag) are undone together.
 */
import type { NodeChange } from "@xyflow/react";

const LIMIT = 100;
const MERGE_MS = 1000;

/** Undo and redo stacks of snapshots `T` (plain values, never changed in place). */
export class History<T> {
  private past: T[] = [];
  private future: T[] = [];
  private last: { tag: string; at: number } | undefined;

  /** Remembers `before`, the state a change is about to leave; a new change drops what was undone. */
  record(before: T, tag = "", now = Date.now()): void {
    const merge = tag !== "" && this.last?.tag === tag && now - this.last.at < MERGE_MS;
    this.last = { tag, at: now };
    if (merge) return;
    this.past.push(before);
    if (this.past.length > LIMIT) this.past.shift();
    this.future = [];
  }

  /** The state before the last change, given the state now (kept for redo); undefined if none. */
  undo(current: T): T | undefined {
    return this.step(this.past, this.future, current);
  }

  /** The state the last undo left, given the state now (kept for undo); undefined if none. */
  redo(current: T): T | undefined {
    return this.step(this.future, this.past, current);
  }

  /** The last state of `from`, `current` kept on `to` to come back to; undefined if none. */
  private step(from: T[], to: T[], current: T): T | undefined {
    const state = from.pop();
    if (state === undefined) return undefined;
    to.push(current);
    this.last = undefined;
    return state;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }
}

/**
 * The undo tag of React Flow `changes`: a drag or a resize (merged while it lasts), "" for an
 * addition or a removal, undefined for what changes nothing saved (selection, measuring).
 */
export function undoTag(changes: NodeChange[]): string | undefined {
  const moved = changes.find((change) => change.type === "position" && change.dragging);
  if (moved) return `drag:${"id" in moved ? moved.id : ""}`;
  const resized = changes.find((change) => change.type === "dimensions" && change.resizing);
  if (resized) return `resize:${"id" in resized ? resized.id : ""}`;
  return changes.some((change) => change.type === "remove" || change.type === "add")
    ? ""
    : undefined;
}
