/**
 * The agent editor's Analysis section as state (docs/dashboard.md#screens,
 * docs/api/manage.md#analysis): from the agent's setting and back to what the API takes.
 */
import type { Schemas } from "../api";

export type FieldType = "string" | "number" | "integer" | "boolean";

/** One field as edited: options as the text typed, comma-separated. */
export type AnalysisFieldRow = {
  name: string;
  type: FieldType;
  description: string;
  options: string;
};

/** The section as edited; `enabled` false sends `analysis: null`. */
export type AnalysisState = { enabled: boolean; summary: boolean; rows: AnalysisFieldRow[] };

/** The agent's setting as the section edits it (off, with a summary ticked, for none). */
export function analysisStateOf(analysis: Schemas["Agent"]["analysis"] | undefined): AnalysisState {
  if (!analysis) return { enabled: false, summary: true, rows: [] };
  return {
    enabled: true,
    summary: analysis.summary,
    rows: analysis.fields.map((field) => ({
      name: field.name,
      type: field.type,
      description: field.description,
      options: (field.options ?? []).join(", "),
    })),
  };
}

/** The setting as the API takes it: null when off; options split, and only on string fields. */
export function toAnalysis(state: AnalysisState) {
  if (!state.enabled) return null;
  return {
    summary: state.summary,
    fields: state.rows.map((row) => {
      const options = row.options
        .split(",")
        .map((option) => option.trim())
        .filter((option) => option.length > 0);
      return {
        name: row.name.trim(),
        type: row.type,
        description: row.description.trim(),
        ...(row.type === "string" && options.length > 0 ? { options } : {}),
      };
    }),
  };
}
