/**
 * Defects for the schema fuzz (test/platform/fuzz.test.ts): values that break one rule of a scalar
 * schema (length, pattern, format, enum, integer, range), the same as text for path, query and
 * header parameters, and hostile inputs no schema describes (odd ids, nesting thousands deep,
 * broken JSON).
 */
import fc from "fast-check";
import type { Broken, Schema } from "./fuzz-schema";

/** The types a schema names (`type` may be one or a list). */
export const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

/** A string `pattern` refuses: the first of a few candidates it does not match. */
function offPattern(pattern: string): string | undefined {
  const regex = new RegExp(pattern);
  return ["", " ", "!", "a b", "Ab-1 ", "x".repeat(70), "caf\u00e9"].find((s) => !regex.test(s));
}

/** Values that break one rule of a string, number or enum `schema` (resolved). */
export function scalarDefects(schema: Schema): Broken[] {
  const types = typesOf(schema);
  const defects: Broken[] = [];
  if (schema.enum) defects.push({ value: "not-an-option", defect: "not in enum" });
  else if (types.includes("string")) {
    if (schema.maxLength !== undefined && schema.maxLength < 100_000)
      defects.push({ value: "y".repeat(schema.maxLength + 1), defect: "too long" });
    if ((schema.minLength ?? 0) > 0) defects.push({ value: "", defect: "too short" });
    const off = schema.pattern ? offPattern(schema.pattern) : undefined;
    if (off !== undefined) defects.push({ value: off, defect: "off pattern" });
    if (schema.format === "date-time") {
      defects.push({ value: "not-a-date", defect: "not a date-time" });
      defects.push({ value: "2026-13-45T25:00:00Z", defect: "not a date-time" });
    }
    if (schema.format === "email")
      for (const value of ["not-an-email", "a@", "@b.example"])
        defects.push({ value, defect: "not an email" });
  }
  if (types.includes("integer")) defects.push({ value: 1.5, defect: "not an integer" });
  if (types.includes("integer") || types.includes("number")) {
    if (schema.minimum !== undefined)
      defects.push({ value: schema.minimum - 1, defect: "below minimum" });
    if (schema.maximum !== undefined)
      defects.push({ value: schema.maximum + 1, defect: "above maximum" });
  }
  return defects;
}

/**
 * The same defects as text, as a path, query or header value carries them (a number that is not
 * one included). Empty texts only with `empty`: an empty path segment names another route.
 */
export function textDefects(schema: Schema, empty: boolean): Broken[] {
  const texts = scalarDefects(schema).map((d) => ({ value: String(d.value), defect: d.defect }));
  if (typesOf(schema).some((type) => type === "integer" || type === "number"))
    texts.push({ value: "abc", defect: "not a number" });
  return texts.filter((d) => empty || d.value !== "");
}

/** Ids no route expects: dot segments, encoded slashes, control characters, injection, length. */
export const oddString = fc.oneof(
  fc.constantFrom(
    "..",
    "%2e%2e",
    "a%2Fb",
    "🙂",
    "\u0000",
    "null",
    "__proto__",
    "constructor",
    "lnk_x",
    "a".repeat(65),
    "b".repeat(5_000),
    "<script>",
    "' OR 1=1 --",
  ),
  fc.string({ minLength: 1, maxLength: 80 }),
);

/** Nested arrays or objects, written as text so any depth costs no recursion here. */
export const deepText = fc
  .tuple(fc.integer({ min: 65, max: 5_000 }), fc.boolean())
  .map(([depth, objects]) =>
    objects
      ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
      : `${"[".repeat(depth)}${"]".repeat(depth)}`,
  );

/** Bodies that are not JSON at all. */
export const brokenJson = fc.constantFrom("", "{", '{"a":', "nul", "[1,]", "{'a':1}");
