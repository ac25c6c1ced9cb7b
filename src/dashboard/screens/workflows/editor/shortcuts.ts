/**
 * The editor's keyboard shortcuts (docs/dashboard.md#workflow-editor): Ctrl/Cmd+Z undo,
 * Ctrl/Cmd+Shift+Z (or Ctrl+Y) redo, Ctrl/Cmd+C copy, Ctrl/Cmd+V paste, Ctrl/Cmd+D duplicate,
 * Delete or Backspace remove the selection, and "/" opens the node search. None of them acts
 * while a field has the focus (its own undo, copy and Backspace stay the browser's).
 */
import { useEffect, useRef } from "react";

export type Shortcut = "undo" | "redo" | "copy" | "paste" | "duplicate" | "remove" | "search";

type Keys = { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean };

/** The shortcut `event` presses, if any. */
export function shortcutOf(event: Keys): Shortcut | undefined {
  const key = event.key.toLowerCase();
  if (event.altKey) return undefined;
  if (event.ctrlKey || event.metaKey) {
    if (key === "z") return event.shiftKey ? "redo" : "undo";
    if (key === "y" && !event.shiftKey) return "redo";
    const plain: Record<string, Shortcut> = { c: "copy", v: "paste", d: "duplicate" };
    return event.shiftKey ? undefined : plain[key];
  }
  if (key === "delete" || key === "backspace") return "remove";
  return key === "/" ? "search" : undefined;
}

/** Whether keys typed at `target` belong to it: a field, a list box, editable text. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || Boolean(target.closest("input, textarea, select"));
}

/**
 * Runs `handlers[shortcut]` for keys pressed outside fields while the editor is open; copying
 * leaves text the person selected to the browser, and nothing acts under an open dialog.
 */
export function useShortcuts(handlers: Partial<Record<Shortcut, () => void>>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (!shortcut || typing(event.target) || document.querySelector("dialog[open]")) return;
      if (shortcut === "copy" && String(window.getSelection() ?? "") !== "") return;
      const handler = current.current[shortcut];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
