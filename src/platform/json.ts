/**
 * JSON values as they cross the Durable Object boundary and reach storage, and the checks every
 * client-sent body passes before anything else walks it (docs/limits.md#nesting).
 */
import { invalidRequest } from "./errors";

/** A value JSON can carry. Typed this way (not `unknown`) so RPC stubs keep the shapes. */
export type JsonValue = string | number | boolean | null | JsonArray | JsonObject;
/** A JSON object (an interface, so RPC typing does not expand it without end). */
export interface JsonObject {
  [key: string]: JsonValue;
}
/** A JSON array. */
export interface JsonArray extends Array<JsonValue> {}

/** Keys that would reach an object's prototype when assigned; refused or kept as plain data. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);

/**
 * Whether JSON text nests deeper than `limit`, read from the text itself (brackets outside
 * strings), so it is checked before `JSON.parse` builds, or overflows on, the value.
 */
export function jsonTextTooDeep(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \ */) i++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * Types a value that was produced by `JSON.parse` (a request body, a stored row) as the JSON it is.
 * The one place such a value is declared JSON; anything else must be built as JsonValue.
 */
export function fromParsedJson(value: unknown): JsonValue {
  return value as JsonValue;
}

/** A parsed JSON object as its own keys hold it, or `{}` for anything that is not an object. */
export function jsonObject(value: unknown): Record<string, JsonValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return value as Record<string, JsonValue>;
}

/**
 * JSON text of a parsed value with every object's keys sorted, so two bodies that differ only in
 * key order or spacing give the same text (idempotency keys compare bodies by its SHA-256). Bodies
 * reach it after the nesting limit (docs/limits.md#nesting), so its recursion is bounded.
 */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`).join(",")}}`;
}

/**
 * Refuses an object whose own keys include `__proto__`, `constructor` or `prototype` (which zod's
 * output would drop silently): 400 invalid_request naming each (docs/errors.md#invalid-request).
 * @param field the body field the object was sent in, e.g. `metadata`
 */
export function refusePrototypeKeys(field: string, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const reserved = Object.keys(value).filter((key) => PROTOTYPE_KEYS.has(key));
  if (reserved.length === 0) return;
  throw invalidRequest(
    "The request body is invalid.",
    reserved.map((key) => ({
      field: `${field}.${key}`,
      code: "reserved_key",
      message: "This key is reserved; use another name.",
    })),
  );
}
