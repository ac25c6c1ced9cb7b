/**
 * What a model is asked to analyse an ended conversation (docs/api/conversations.md#analysis): the
 * instructions, the transcript within the token budget, and the JSON schema of the answer.
 */
import type { AnalysisSettings } from "../../db/schema";
import type { ChatMessage } from "./prompt";
import { historyWithinBudget } from "./prompt";
import type { AnalysisRequest, RawAnalysis } from "./types";

/** The JSON schema of the answer: strict (every key required, none other), nulls allowed. */
export function analysisJsonSchema(settings: AnalysisSettings): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of settings.fields) {
    const type = field.type === "integer" ? "integer" : field.type;
    properties[field.name] = {
      type: [type, "null"],
      description: field.description,
      ...(field.options ? { enum: [...field.options, null] } : {}),
    };
  }
  const names = settings.fields.map((field) => field.name);
  return {
    type: "object",
    properties: {
      summary: { type: ["string", "null"] },
      data: { type: "object", properties, required: names, additionalProperties: false },
    },
    required: ["summary", "data"],
    additionalProperties: false,
  };
}

/** The model's messages: what to do, then the transcript as one user message. */
export function analysisMessages(request: AnalysisRequest): ChatMessage[] {
  const { context, settings } = request;
  const fields = settings.fields.map(
    (field) =>
      `- ${field.name} (${field.type}${field.options ? `, one of ${JSON.stringify(field.options)}` : ""}): ${field.description}`,
  );
  const system = [
    `You analyse a finished chat between ${context.agent.name} (the agent) and a person.`,
    'Answer with one JSON object only: {"summary": …, "data": {…}}.',
    settings.summary
      ? "summary: two or three sentences on what the person wanted and how it ended."
      : "summary: null.",
    fields.length > 0
      ? `data: these fields, each null when the chat does not tell:\n${fields.join("\n")}`
      : "data: {}.",
  ].join("\n");
  const transcript = historyWithinBudget(request.transcript)
    .map((m) => `${m.role === "agent" ? "Agent" : "Person"}: ${m.text}`)
    .join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: transcript || "(no messages)" },
  ];
}

/**
 * The model's answer as an analysis: an object as is, or text holding one (a fenced block too).
 * @throws Error when it holds no JSON object (the try fails and is retried)
 */
export function parseAnalysis(answer: unknown): RawAnalysis {
  let value = answer;
  if (typeof value === "string") {
    const start = value.indexOf("{");
    const end = value.lastIndexOf("}");
    if (start < 0 || end < start) throw new Error("The model answered no JSON object.");
    value = JSON.parse(value.slice(start, end + 1));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("The model answered no JSON object.");
  }
  return value as RawAnalysis;
}
