/**
 * The dashboard's few routes, on the History API (no router library: a handful of paths, and one
 * item below a screen's path, as `/app/links/{id}`). Links are real `<a href>` elements, so
 * opening in a new tab and keyboard use work.
 */
import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
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
 * Whether `path` is the screen at `base` (`{}`) or one item below it (`{ id }`, decoded), else
 * null: `/app/links` and `/app/links/lnk_1` are the Links screen (docs/dashboard.md#screens).
 */
export function matchPath(base: string, path: string): { id?: string } | null {
  if (path === base) return {};
  const rest = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : "";
  if (rest === "" || rest.includes("/")) return null;
  try {
    return { id: decodeURIComponent(rest) };
  } catch {
    return null; // a malformed escape names no item
  }
}

/** Goes to `path` (with its query, if any) inside the dashboard without reloading. */
export function navigate(path: string): void {
  window.history.pushState(null, "", path);
  for (const listener of listeners) listener();
}

/** Turns a plain left click on a dashboard link into in-page navigation. */
export function followLink(event: React.MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  event.preventDefault();
  navigate(event.currentTarget.pathname + event.currentTarget.search);
}
