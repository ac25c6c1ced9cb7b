/** Zod issues as `invalid_request`'s `{field, code, message}` details (docs/api/launch.md). */
import type { z } from "@hono/zod-openapi";
import { type DetailCode, isDetailCode } from "./detail-codes";
import type { ErrorDetail } from "./errors";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/**
 * The detail code of any other zod issue, in our words (docs/errors.md#detail-codes), never zod's:
 * a value not among an enum's `invalid_option`, as the workflow model and launch parameters say it.
 */
function otherCode(issue: z.core.$ZodIssue): DetailCode {
  if (issue.code === "invalid_value") return "invalid_option";
  if (issue.code === "invalid_format") return "invalid_format";
  const named = issue.code === "custom" ? issue.params?.code : undefined;
  return isDetailCode(named) ? named : "invalid_value";
}

/** Maps each zod issue to one detail; unknown keys give one `unknown_field` detail per key. */
export function issuesToDetails(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) {
          const field = fieldName([...issue.path, key]);
          details.push({ field, code: "unknown_field", message: `Unknown field "${field}".` });
        }
        break;
      case "invalid_type": {
        const missing = valueAt(input, issue.path) === undefined;
        details.push({
          field: fieldName(issue.path),
          code: missing ? "required" : "invalid_type",
          message: missing ? "This field is required." : `Expected ${issue.expected}.`,
        });
        break;
      }
      case "too_big":
      case "too_small":
        details.push({
          field: fieldName(issue.path),
          code: "out_of_range",
          message: issue.message,
        });
        break;
      case "invalid_union":
        details.push({
          field: fieldName(issue.path),
          code: "invalid_type",
          message: issue.message,
        });
        break;
      default:
        details.push({
          field: fieldName(issue.path),
          code: otherCode(issue),
          message: issue.message,
        });
    }
  }
  return details;
}
