/**
 * How the side panel reads and writes a node's settings (docs/dashboard.md#workflow-editor): by
 * dotted path, and the text of settings that take any JSON.
 */

/** The value at dotted `path` inside `node`. */
export function getAt(node: Record<string, unknown>, path: string): unknown {
  let value: unknown = node;
  for (const key of path.split(".")) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

/** A copy of `node` with `value` at dotted `path`; undefined removes it, and groups left empty. */
export function setAt<T extends Record<string, unknown>>(node: T, path: string, value: unknown): T {
  const [head = "", ...rest] = path.split(".");
  const copy: Record<string, unknown> = { ...node };
  const next =
    rest.length === 0
      ? value
      : setAt((copy[head] as Record<string, unknown> | undefined) ?? {}, rest.join("."), value);
  const empty = typeof next === "object" && next !== null && Object.keys(next).length === 0;
  if (next === undefined || (rest.length > 0 && empty)) delete copy[head];
  else copy[head] = next;
  return copy as T;
}

/** A "value" setting as text: strings as typed, unless they would read as JSON; the rest as JSON. */
export function valueToText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") return JSON.stringify(value);
  try {
    JSON.parse(value);
    return JSON.stringify(value);
  } catch {
    return value;
  }
}

/** Text typed into a "value" setting: JSON when it parses, else the string; "" is no value. */
export function textToValue(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
