/** JSON values across RPC and storage, and the checks client bodies pass first (docs/limits.md#nesting). */
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

/** Whether JSON text nests deeper than `limit`, read on the text before `JSON.parse` could overflow. */
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

/** Types a `JSON.parse` result as JSON: the one place such a value is declared so. */
export function fromParsedJson(value: unknown): JsonValue {
  return value as JsonValue;
}

/** A parsed JSON object as its own keys hold it, or `{}` for anything that is not an object. */
export function jsonObject(value: unknown): Record<string, JsonValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return value as Record<string, JsonValue>;
}

/**
 * JSON text with keys sorted, so bodies differing in key order or spacing match (idempotency);
 * recursion bounded by the nesting limit (docs/limits.md#nesting).
 */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`).join(",")}}`;
}

/**
 * Refuses own `__proto__`, `constructor` or `prototype` keys (zod would drop them silently): 400
 * invalid_request naming each (docs/errors.md#invalid-request).
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
