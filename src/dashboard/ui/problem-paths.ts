/**
 * Where a problem stands, as the person sees it (docs/dashboard.md#forms-and-problems): a path as
 * the API or zod gives it (`parameters.1.name`, `parameters[1].name`) read into its parts, the
 * field it names without list indexes, a field's label from its name, and the item's place
 * numbered from 1 ("Parameter 2"). Used by problem-text.ts.
 */

// A list's items are named by the list's singular: parameters[1] → "Parameter 2".
const ITEM_NAMES: Record<string, string> = {
  parameters: "Parameter",
  nodes: "Node",
  connections: "Connection",
  notes: "Note",
  headers: "Header",
  options: "Option",
  events: "Event",
  origins: "Origin",
  sites: "Site",
  allowedOrigins: "Site",
  scopes: "Scope",
};

/** `parameters.1.name`, `parameters[1].name` or zod's path → `["parameters", 1, "name"]`. */
export function segmentsOf(path: string | readonly PropertyKey[] | undefined): (string | number)[] {
  if (path === undefined) return [];
  const parts =
    typeof path === "string"
      ? path.split(/[.[\]]+/).filter((part) => part !== "")
      : path.map((part) => (typeof part === "number" ? part : String(part)));
  return parts.map((part) =>
    typeof part === "string" && /^\d+$/.test(part) ? Number(part) : part,
  );
}

/** The field's path with its list indexes left out: `parameters.name`. */
export const fieldKeyOf = (segments: readonly (string | number)[]) =>
  segments.filter((part) => typeof part === "string").join(".");

/** "responseTimeoutSeconds" → "response timeout seconds", "httpMethod" → "HTTP method". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .split(" ")
    .map((word) => ({ http: "HTTP", url: "URL", id: "ID", json: "JSON" })[word] ?? word)
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Where the value stands as the person sees it: "Parameter 2", "Node 3, header 1"; "" if no list. */
export function placeOf(segments: readonly (string | number)[]): string {
  const places: string[] = [];
  for (const [at, part] of segments.entries()) {
    const list = segments[at - 1];
    if (typeof part !== "number" || typeof list !== "string") continue;
    const item = ITEM_NAMES[list] ?? labelOf(list.replace(/s$/, ""));
    places.push(`${places.length ? item.toLowerCase() : item} ${part + 1}`);
  }
  return places.join(", ");
}
