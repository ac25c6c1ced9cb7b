/**
 * Templates in node settings (docs/api/webhooks.md#request-outputs): `{{<node_key>.<path>}}` and `{{secrets.NAME}}`.
 * A plain walk over own properties (no eval, nothing inherited); resolved values are never read as
 * templates again, so a caller cannot inject `{{secrets.X}}`.
 */
import { BoundedMap } from "../../platform/bounded-map";
import type { JsonValue } from "../../platform/json";

/** What templates can read: the outputs of finished nodes by key and the workspace secrets. */
export type TemplateScope = { outputs: Record<string, JsonValue>; secrets: Record<string, string> };

// The path may hold spaces inside (JSON keys can), but not braces; whitespace around it is trimmed.
const PATH = "([^{}\\s](?:[^{}]*[^{}\\s])?)";
const TEMPLATE = new RegExp(`\\{\\{\\s*${PATH}\\s*\\}\\}`, "g");
const WHOLE_TEMPLATE = new RegExp(`^\\{\\{\\s*${PATH}\\s*\\}\\}$`);
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** True for `{}`-style objects (what JSON produces); arrays, null and class instances are not. */
export function isPlainObject<T = unknown>(value: T | unknown): value is Record<string, T> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A value inside text: strings as is, null/undefined empty, objects and arrays as JSON, else String. */
export function valueAsText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// An own `__proto__` (JSON.parse and fromEntries make one) shadows the inherited accessor, so
// reading it after `hasOwn` gives the data; an inherited name fails `hasOwn` and reads as missing.
function child(value: JsonValue | undefined, segment: string): JsonValue | undefined {
  if (Array.isArray(value)) return ARRAY_INDEX.test(segment) ? value[Number(segment)] : undefined;
  if (isPlainObject(value)) return Object.hasOwn(value, segment) ? value[segment] : undefined;
  return undefined;
}

/** The value a template path points at, or undefined when any step is missing. */
function lookup(path: string, scope: TemplateScope): JsonValue | undefined {
  return lookupSegments(path.split("."), scope);
}

function lookupSegments(segments: readonly string[], scope: TemplateScope): JsonValue | undefined {
  const head = segments[0] ?? "";
  if (head === "secrets") {
    const name = segments[1];
    return segments.length === 2 && name !== undefined ? child(scope.secrets, name) : undefined;
  }
  let current = child(scope.outputs, head);
  for (let i = 1; i < segments.length; i++) {
    if (current === undefined) return undefined;
    current = child(current, segments[i] as string);
  }
  return current;
}

/** Settings' texts whose whole-template check is kept, and their longest; the map starts over past it. */
const CACHED_TEXTS = 1_000;
const CACHED_TEXT_CHARS = 200;
/**
 * By text: the path of a text that is one template, split on ".", or null. Every call of a
 * workflow resolves the same settings' texts, and a text's answer never changes.
 */
const wholePaths = new BoundedMap<string, readonly string[] | null>(CACHED_TEXTS);

function wholePath(text: string): readonly string[] | null {
  return text.length > CACHED_TEXT_CHARS ? splitWhole(text) : wholePaths.kept(text, splitWhole);
}

function splitWhole(text: string): readonly string[] | null {
  const whole = WHOLE_TEMPLATE.exec(text);
  return whole?.[1] === undefined ? null : Object.freeze(whole[1].split("."));
}

function resolveString(text: string, scope: TemplateScope): JsonValue {
  if (!text.includes("{{")) return text;
  const whole = wholePath(text);
  if (whole !== null) {
    const value = lookupSegments(whole, scope);
    return value === undefined ? "" : value;
  }
  return text.replace(TEMPLATE, (_match, path: string) => valueAsText(lookup(path, scope)));
}

/** Whether every template in `text` resolves non-empty (docs/webhooks.md#deduplication). */
export function everyTemplateResolves(text: string, scope: TemplateScope): boolean {
  for (const match of text.matchAll(TEMPLATE)) {
    if (match[1] === undefined || valueAsText(lookup(match[1], scope) ?? "") === "") return false;
  }
  return true;
}

/**
 * Resolves every template in string values of `value` (keys are not templates): a string that is
 * one template takes the value with its type, others interpolate text; missing is "". Never throws.
 */
export function resolveValue(value: JsonValue, scope: TemplateScope): JsonValue {
  if (typeof value === "string") return resolveString(value, scope);
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, scope));
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a `__proto__` key stays data and sets no prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveValue(item, scope)]),
    );
  }
  return value;
}

/** Calls `visit` with the path (split on ".") of every template inside every string of `value`. */
function forEachTemplatePath(value: unknown, visit: (segments: string[]) => void): void {
  if (typeof value === "string") {
    if (!value.includes("{{")) return;
    for (const match of value.matchAll(TEMPLATE)) {
      if (match[1] !== undefined) visit(match[1].split("."));
    }
  } else if (Array.isArray(value)) {
    for (const item of value) forEachTemplatePath(item, visit);
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) forEachTemplatePath(item, visit);
  }
}

/** Node keys referenced by templates anywhere in `value`, deduplicated, `secrets` excluded. */
export function templateReferences(value: unknown): string[] {
  const keys = new Set<string>();
  forEachTemplatePath(value, ([head = ""]) => {
    if (head !== "secrets") keys.add(head);
  });
  return [...keys];
}

/** Secret names referenced as `{{secrets.NAME}}` anywhere in `value`, deduplicated. */
export function secretReferences(value: unknown): string[] {
  const names = new Set<string>();
  forEachTemplatePath(value, ([head, name, ...rest]) => {
    if (head === "secrets" && name !== undefined && rest.length === 0) names.add(name);
  });
  return [...names];
}
