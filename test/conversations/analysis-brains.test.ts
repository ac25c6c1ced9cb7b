/**
 * The brains' analysis (docs/api/conversations.md#analysis): the models' JSON output mode, the
 * scripted stand-in, and the strict check of the data against the fields.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { failedAnalysis, validateAnalysis } from "../../src/conversations/analysis";
import {
  type AnalysisRequest,
  OpenAiCompatibleBrain,
  ScriptedBrain,
  WorkersAiBrain,
} from "../../src/conversations/brains";
import type { AnalysisSettings } from "../../src/db/schema";
import type { AiRunner } from "../../src/platform/env";
import { ANALYSIS } from "../helpers/fake-openai.mjs";

const FAKE_LLM_URL = (env as unknown as { FAKE_LLM_URL: string }).FAKE_LLM_URL;
const signal = new AbortController().signal;

const settings: AnalysisSettings = {
  summary: true,
  fields: [
    { name: "plan", type: "string", description: "Their plan", options: ["basic", "pro"] },
    { name: "seats", type: "integer", description: "How many seats" },
    { name: "renew", type: "boolean", description: "Renews" },
    { name: "budget", type: "number", description: "Budget in EUR" },
  ],
};

const request: AnalysisRequest = {
  context: {
    agent: { name: "Onboarding", instructions: null, model: "@cf/some/model" },
    participant: { name: "Ada" },
    parameters: {},
    globalTask: null,
  },
  transcript: [
    { role: "agent", text: "Hi Ada!" },
    { role: "person", text: "plan: pro, seats = 3" },
    { role: "person", text: "renew: no; budget: 12.5. Seats: 4" },
  ],
  settings,
};

describe("validateAnalysis", () => {
  it("keeps valid values, nulls failing ones with a problem each, and lists unknown keys", () => {
    const checked = validateAnalysis(settings, {
      summary: "  Short.  ",
      data: { plan: "gold", seats: 2.5, renew: true, budget: "12", extra: 1 },
    });
    expect(checked).toEqual({
      status: "completed",
      summary: "Short.",
      data: { plan: null, seats: null, renew: true, budget: null },
      problems: [
        { field: "plan", message: expect.any(String) },
        { field: "seats", message: expect.any(String) },
        { field: "budget", message: expect.any(String) },
        { field: "extra", message: "Not a field of the analysis." },
      ],
    });
  });

  it("absent or null values are null without a problem; no summary unless asked for", () => {
    expect(validateAnalysis({ ...settings, summary: false }, { summary: "x" })).toEqual({
      status: "completed",
      summary: null,
      data: { plan: null, seats: null, renew: null, budget: null },
      problems: [],
    });
    expect(validateAnalysis(settings, { summary: 42, data: [] }).problems).toEqual([
      { field: "summary", message: "Expected text." },
    ]);
    expect(failedAnalysis(settings)).toEqual({
      status: "failed",
      summary: null,
      data: { plan: null, seats: null, renew: null, budget: null },
      problems: [],
    });
  });
});

describe("the scripted stand-in", () => {
  it("reads the last `name: value` of the person, typed where it can be", async () => {
    const raw = await new ScriptedBrain(0).analyze(request);
    expect(raw.data).toEqual({ plan: "pro", seats: 4, renew: false, budget: 12.5 });
    expect(raw.summary).toBe(
      '3 messages with Onboarding. The person first wrote "plan: pro, seats = 3" and last "renew: no; budget: 12.5. Seats: 4".',
    );
    expect(validateAnalysis(settings, raw).problems).toEqual([]);
  });
});

describe("the models' JSON output mode", () => {
  it("Workers AI: the agent's model with response_format json_schema, the answer parsed", async () => {
    const calls: { model: string; input: Record<string, unknown> }[] = [];
    const ai: AiRunner = {
      run: async (model: string, input: unknown) => {
        calls.push({ model, input: input as Record<string, unknown> });
        return { response: { summary: "Fine.", data: { plan: "basic", seats: 1 } } };
      },
    };
    const raw = await new WorkersAiBrain(ai).analyze(request, signal);
    expect(raw).toEqual({ summary: "Fine.", data: { plan: "basic", seats: 1 } });
    expect(calls[0]?.model).toBe("@cf/some/model");
    const format = calls[0]?.input.response_format as {
      type: string;
      json_schema: { properties: { data: { properties: Record<string, unknown> } } };
    };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.properties.data.properties.plan).toEqual({
      type: ["string", "null"],
      description: "Their plan",
      enum: ["basic", "pro", null],
    });
    expect(format.json_schema.properties.data.properties.seats).toMatchObject({
      type: ["integer", "null"],
    });
    const messages = calls[0]?.input.messages as { role: string; content: string }[];
    expect(messages[1]?.content).toContain("Person: plan: pro, seats = 3");
    // Text holding the JSON (a model without JSON mode) is read too; no JSON fails the try.
    ai.run = async () => ({ response: 'Here: ```json\n{"summary":"T","data":{}}\n```' });
    expect(await new WorkersAiBrain(ai).analyze(request, signal)).toEqual({
      summary: "T",
      data: {},
    });
    ai.run = async () => ({ response: "no idea" });
    await expect(new WorkersAiBrain(ai).analyze(request, signal)).rejects.toThrow(/no JSON/);
  });

  it("OpenAI-compatible: one unstreamed call with a strict json_schema response_format", async () => {
    const id = crypto.randomUUID();
    const brain = new OpenAiCompatibleBrain({
      baseUrl: `${FAKE_LLM_URL}/json/${id}/v1/`,
      apiKey: "sk-test",
      model: "fake-model",
    });
    expect(await brain.analyze(request, signal)).toEqual(ANALYSIS);
    const [sent] = (await (await fetch(`${FAKE_LLM_URL}/requests/${id}`)).json()) as {
      body: Record<string, unknown>;
    }[];
    expect(sent?.body.stream).toBeUndefined();
    expect(sent?.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "conversation_analysis", strict: true },
    });
    // Through the check, the fake's string "3" fails the integer field.
    expect(validateAnalysis(settings, ANALYSIS).problems).toEqual([
      { field: "seats", message: expect.any(String) },
    ]);
  });
});
