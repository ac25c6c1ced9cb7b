/**
 * The agent editor's Analysis section and the link page's analysis (docs/dashboard.md#screens):
 * the setting round-trips through the section's state, and what is sent is what the API's own
 * schema accepts or refuses.
 */
import { describe, expect, it } from "vitest";
import { CreateAgentSchema } from "../../src/agents/schemas";
import {
  type AnalysisState,
  analysisStateOf,
  toAnalysis,
} from "../../src/dashboard/screens/analysis-setting";
import {
  ANALYSIS_WAIT_MS,
  analysisValue,
  awaitingAnalysis,
} from "../../src/dashboard/screens/links/analysis-format";

const setting = {
  summary: false,
  fields: [
    { name: "reason", type: "string" as const, description: "Why", options: ["billing", "bug"] },
    { name: "seats", type: "integer" as const, description: "How many" },
  ],
};

const agent = (analysis: unknown) => ({ name: "A", mode: "initiator", parameters: [], analysis });

describe("the Analysis section", () => {
  it("is off for none, and round-trips a setting", () => {
    expect(toAnalysis(analysisStateOf(null))).toBeNull();
    expect(toAnalysis(analysisStateOf(setting))).toEqual(setting);
  });

  it("sends options of string fields only, split and trimmed; names and descriptions trimmed", () => {
    const state: AnalysisState = {
      enabled: true,
      summary: true,
      rows: [
        { name: " plan ", type: "string", description: " Plan ", options: "basic, pro ,," },
        { name: "count", type: "number", description: "Count", options: "1, 2" },
        { name: "note", type: "string", description: "Note", options: "" },
      ],
    };
    const sent = toAnalysis(state);
    expect(sent).toEqual({
      summary: true,
      fields: [
        { name: "plan", type: "string", description: "Plan", options: ["basic", "pro"] },
        { name: "count", type: "number", description: "Count" },
        { name: "note", type: "string", description: "Note" },
      ],
    });
    expect(CreateAgentSchema.safeParse(agent(sent)).success).toBe(true);
  });

  it("what the API refuses, the browser refuses first, at the same paths", () => {
    const state: AnalysisState = {
      enabled: true,
      summary: false,
      rows: [
        { name: "a", type: "string", description: "", options: "" },
        { name: "a", type: "boolean", description: "B", options: "" },
      ],
    };
    const checked = CreateAgentSchema.safeParse(agent(toAnalysis(state)));
    expect(checked.success).toBe(false);
    expect(checked.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "analysis.fields.0.description",
      "analysis.fields.1.name",
    ]);
  });
});

describe("the link page's analysis", () => {
  it("waits after a recent end of an agent with analysis, and only then", () => {
    const now = Date.parse("2026-11-27T10:00:00Z");
    const ended = { status: "ended", endedAt: "2026-11-27T09:59:00Z" };
    expect(awaitingAnalysis(ended, true, now)).toBe(true);
    expect(awaitingAnalysis(ended, false, now)).toBe(false);
    expect(awaitingAnalysis({ ...ended, analysis: {} }, true, now)).toBe(false);
    expect(awaitingAnalysis({ ...ended, status: "in-progress" }, true, now)).toBe(false);
    expect(awaitingAnalysis(ended, true, now + ANALYSIS_WAIT_MS)).toBe(false);
  });

  it("shows values in words", () => {
    expect([true, false, null, 3, "x"].map(analysisValue)).toEqual([
      "Yes",
      "No",
      "Unknown",
      "3",
      "x",
    ]);
  });
});
