/**
 * The dashboard's few routes, on the History API (no router library: a handful of paths, some
 * with `:name` segments, as `/app/links/:id`). Links are real `<a href>` elements, so opening in a
 * new tab and keyboard use work. While a screen has unsaved edits (ui/leave-guard.ts), every
 * navigation here, back and forward included, asks first (docs/dashboard.md#leaving-unsaved-work).
 */
import { useSyncExternalStore } from "react";
import { askToLeave, leaveGuarded } from "./ui/leave-guard";

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Each history entry the dashboard makes carries its position (`{index}`), so a back or forward
 * the person did not mean to take can be undone by the same number of steps.
 */
type Entry = { index: number };

function indexOf(state: unknown): number | undefined {
  const index = (state as Partial<Entry> | null)?.index;
  return typeof index === "number" ? index : undefined;
}

/** The entry shown now: its position and address, as the router last settled on them. */
let shown = { index: 0, address: "" };
/**
 * A `history.go` the router itself took, whose `popstate` is not the person's: `undo` puts the
 * page back quietly, `redo` takes the step the person chose to take after all.
 */
let own: "undo" | "redo" | null = null;

if (typeof window !== "undefined") {
  shown = { index: indexOf(window.history.state) ?? 0, address: addressNow() };
  if (indexOf(window.history.state) === undefined) {
    window.history.replaceState({ index: 0 } satisfies Entry, "");
  }
  window.addEventListener("popstate", onPopState);
}

function addressNow(): string {
  return window.location.pathname + window.location.search;
}

/**
 * Back or forward (the URL has already changed): without unsaved edits, or within one page (a
 * `#fragment`), it is followed; otherwise the step is undone and the person asked, and Leave
 * takes it again.
 */
function onPopState(event: PopStateEvent): void {
  const index = indexOf(event.state);
  const target = addressNow();
  const taking = own;
  own = null;
  if (taking === "undo") return;
  if (taking === "redo" || !leaveGuarded() || target === shown.address) {
    shown = { index: index ?? shown.index, address: target };
    notify();
    return;
  }
  const from = shown;
  if (index === undefined) {
    // An entry the router did not make (none of its own do this): put the page back as a new one.
    window.history.pushState({ index: from.index + 1 } satisfies Entry, "", from.address);
    shown = { index: from.index + 1, address: from.address };
    askToLeave(() => go(target));
    return;
  }
  const steps = from.index - index;
  own = "undo";
  window.history.go(steps);
  askToLeave(() => {
    own = "redo";
    window.history.go(-steps);
  });
}

/** Goes to `path` now, without asking. */
function go(path: string): void {
  const index = shown.index + 1;
  window.history.pushState({ index } satisfies Entry, "", path);
  shown = { index, address: addressNow() };
  notify();
}

/**
 * Puts `path` in place of the current address (an unknown path shown as its screen's), keeping
 * the entry's position; nothing is left, so nothing is asked.
 */
export function replacePath(path: string): void {
  window.history.replaceState({ index: shown.index } satisfies Entry, "", path);
  shown = { index: shown.index, address: addressNow() };
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The current query string (`?…` or empty), re-rendering when it changes, as a search form's. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/**
 * The query string of `filters` (empty ones left out), `?`-prefixed, or "" for none: a search
 * form's filters as they travel in the address.
 */
export function queryString(filters: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Goes to `path` (with its query, if any) inside the dashboard without reloading; while a screen
 * has unsaved edits, only once the person chose Leave (ui/leave-guard.ts). The current address
 * itself is never asked about.
 */
export function navigate(path: string): void {
  const here = new URL(addressNow(), window.location.origin);
  const there = new URL(path, here);
  if (leaveGuarded() && there.pathname + there.search !== here.pathname + here.search) {
    askToLeave(() => go(path));
    return;
  }
  go(path);
}

/** Turns a plain left click on a dashboard link into in-page navigation. */
export function followLink(event: React.MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  event.preventDefault();
  navigate(event.currentTarget.pathname + event.currentTarget.search);
}

/** Path parameters by name, from a pattern's `:name` segments. */
export type PathParams = Record<string, string>;

/**
 * Matches `path` against `pattern`, whose `:name` segments match any one non-empty segment, e.g.
 * `/app/workflows/:id` against `/app/workflows/wf_1` gives `{id: "wf_1"}`; otherwise null.
 * Segments are compared whole and decoded, so `/app/workflows` never matches `/app/workflows/x`.
 */
export function matchPath(pattern: string, path: string): PathParams | null {
  const wanted = pattern.split("/");
  const given = path.replace(/\/+$/, "").split("/");
  if (wanted.length !== given.length) return null;
  const params: PathParams = {};
  for (const [index, segment] of wanted.entries()) {
    const actual = given[index] ?? "";
    if (segment.startsWith(":")) {
      if (actual === "") return null;
      try {
        params[segment.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null; // a malformed escape: no screen has it
      }
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}
