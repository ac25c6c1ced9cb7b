/**
 * The dashboard's few routes, on the History API (no router library: a handful of paths, some
 * with `:name` segments, as `/app/links/:id`). Links are real `<a href>` elements, so opening in a
 * new tab and keyboard use work.
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
 * The query string of `filters` (empty ones left out), `?`-prefixed, or "" for none: a search
 * form's filters as they travel in the address.
 */
export function queryString(filters: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
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
