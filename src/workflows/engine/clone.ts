/** Deep copies of untrusted JSON, so a stored definition shares nothing with the caller's input. */
import { fromParsedJson, type JsonValue } from "../../platform/json";
import { isPlainObject } from "./template";

/** A deep copy of a JSON value. */
export function cloneJson(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) return cloneJsonObject(value);
  return fromParsedJson(value);
}

/** `cloneJson` of an object, typed as one. */
export function cloneJsonObject(value: Record<string, unknown>): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneJson(item)]));
}
