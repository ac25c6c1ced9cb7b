/**
 * Strict validation of a link's parameters against the agent's Initial Parameters
 * (docs/api/launch.md#parameters). No conversion: "5" is not a number, 1.5 is not an integer.
 */
import type { ParameterDefinition } from "../db/schema";
import type { ErrorDetail } from "../platform/errors";

function hasType(value: unknown, type: ParameterDefinition["type"]): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
  }
}

/**
 * Lists every problem of `values` as `{code, name}`: `unknown_parameter`, `invalid_type`,
 * `invalid_option`, `missing_required`. An empty list means the values are accepted.
 */
export function parameterProblems(
  definitions: readonly ParameterDefinition[],
  values: Readonly<Record<string, unknown>>,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  for (const [name, value] of Object.entries(values)) {
    const definition = byName.get(name);
    if (!definition) problems.push({ code: "unknown_parameter", name });
    else if (!hasType(value, definition.type)) problems.push({ code: "invalid_type", name });
    else if (
      definition.options &&
      !definition.options.includes(value as string | number | boolean)
    ) {
      problems.push({ code: "invalid_option", name });
    }
  }
  for (const definition of definitions) {
    if (definition.required && !Object.hasOwn(values, definition.name)) {
      problems.push({ code: "missing_required", name: definition.name });
    }
  }
  return problems;
}
