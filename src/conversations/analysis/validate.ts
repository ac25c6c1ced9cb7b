/**
 * A brain's analysis checked against the agent's fields (docs/api/conversations.md#analysis): each
 * value strictly of its field's type (and options); one that fails is null and listed as a problem.
 */
import { z } from "@hono/zod-openapi";
import type { AnalysisSettings, ConversationAnalysis } from "../../db/schema";
import type { RawAnalysis } from "../brains";

type Field = AnalysisSettings["fields"][number];

/** Characters of a summary or a string value kept. */
export const MAX_ANALYSIS_TEXT = 2_000;

/** The field's schema; null is allowed everywhere (the conversation may not tell). */
function fieldSchema(field: Field): z.ZodType {
  switch (field.type) {
    case "string":
      return field.options
        ? z.enum(field.options as [string, ...string[]])
        : z.string().min(1).max(MAX_ANALYSIS_TEXT);
    case "number":
      return z.number();
    case "integer":
      return z.int();
    case "boolean":
      return z.boolean();
  }
}

/**
 * The completed analysis: `summary` only when asked for (a string, cut to MAX_ANALYSIS_TEXT);
 * `data` with every field, null when absent or failing; `problems` for failing values and keys
 * that are no field.
 */
export function validateAnalysis(
  settings: AnalysisSettings,
  raw: RawAnalysis,
): ConversationAnalysis {
  const given = isRecord(raw.data) ? raw.data : {};
  const data: ConversationAnalysis["data"] = {};
  const problems: ConversationAnalysis["problems"] = [];
  for (const field of settings.fields) {
    const value = Object.hasOwn(given, field.name) ? given[field.name] : null;
    if (value === null || value === undefined) {
      data[field.name] = null;
      continue;
    }
    const parsed = fieldSchema(field).safeParse(value);
    data[field.name] = parsed.success ? (parsed.data as string | number | boolean) : null;
    if (!parsed.success) {
      problems.push({ field: field.name, message: parsed.error.issues[0]?.message ?? "Invalid." });
    }
  }
  const names = new Set(settings.fields.map((field) => field.name));
  for (const key of Object.keys(given)) {
    if (!names.has(key)) problems.push({ field: key, message: "Not a field of the analysis." });
  }
  let summary: string | null = null;
  if (settings.summary) {
    if (typeof raw.summary === "string" && raw.summary.trim()) {
      summary = raw.summary.trim().slice(0, MAX_ANALYSIS_TEXT);
    } else if (raw.summary !== null && raw.summary !== undefined) {
      problems.push({ field: "summary", message: "Expected text." });
    }
  }
  return { status: "completed", summary, data, problems };
}

/** The analysis after the last try failed: nothing known. */
export function failedAnalysis(settings: AnalysisSettings): ConversationAnalysis {
  const data = Object.fromEntries(settings.fields.map((field) => [field.name, null]));
  return { status: "failed", summary: null, data, problems: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
