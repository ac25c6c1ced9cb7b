/**
 * Asking before unsaved work is left behind (docs/dashboard.md#leaving-unsaved-work). A screen
 * with unsaved edits holds a guard (`useLeaveGuard`); while any is held, the router
 * (router.ts) asks before every in-app navigation (links, tabs, the breadcrumb, back and
 * forward) and the browser asks before a reload, closing the tab or leaving the dashboard.
 * The question itself is `<LeavePrompt>`, mounted once by the shell (App.tsx).
 */
import { useEffect, useSyncExternalStore } from "react";

/** The guards held now, one per screen with unsaved edits. */
const held = new Set<symbol>();
/** The navigation waiting for an answer: `go` carries it out; null when nothing is asked. */
let pending: { go: () => void } | null = null;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** True while some screen has unsaved edits: the router then asks before navigating. */
export function leaveGuarded(): boolean {
  return held.size > 0;
}

/**
 * Asks whether to leave: `go` runs (once, without asking again) if the person chooses Leave, and
 * never if they choose Stay. A second question while one is open replaces the first's `go`.
 */
export function askToLeave(go: () => void): void {
  pending = { go };
  changed();
}

/**
 * Holds a guard while `dirty`: in-app navigation asks first (router.ts), and the browser's own
 * "Leave site?" question stands before a reload or closing the tab (`beforeunload`). Released on
 * unmount, or when `dirty` turns false (after saving).
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const guard = Symbol("unsaved");
    held.add(guard);
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => {
      held.delete(guard);
      window.removeEventListener("beforeunload", warn);
    };
  }, [dirty]);
}

/**
 * The open question for `<LeavePrompt>`: `asking` while a navigation waits; `stay()` drops it,
 * `leave()` carries it out.
 */
export function useLeaveQuestion(): { asking: boolean; stay: () => void; leave: () => void } {
  const current = useSyncExternalStore(subscribe, () => pending);
  return {
    asking: current !== null,
    stay: () => {
      if (pending === null) return; // the dialog's close event follows a choice: idempotent
      pending = null;
      changed();
    },
    leave: () => {
      const chosen = pending;
      pending = null;
      changed();
      chosen?.go();
    },
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
