/**
 * The scripted brain's analysis (docs/api/conversations.md#analysis): deterministic, from the
 * transcript alone, so tests and local development see the whole path without a model.
 */
import type { AnalysisRequest, RawAnalysis } from "./types";

/** Characters of a message quoted in the summary. */
const QUOTE_LENGTH = 120;

/**
 * Summary: how many messages, the person's first and last. Data: for each field, the last
 * `name: value` (or `name = value`, the name in any case) the person wrote, read as the field's type where it can be
 * (digits as a number; yes/no/true/false as a boolean), else as written, so a mismatch shows.
 */
export function scriptedAnalysis(request: AnalysisRequest): RawAnalysis {
  const person = request.transcript.filter((m) => m.role === "person").map((m) => m.text);
  const data: Record<string, unknown> = {};
  for (const field of request.settings.fields) {
    const raw = lastMention(person, field.name);
    data[field.name] = raw === null ? null : typed(raw, field.type);
  }
  return { summary: request.settings.summary ? summary(request, person) : null, data };
}

function summary(request: AnalysisRequest, person: string[]): string {
  const count = request.transcript.length;
  const first = person[0];
  const last = person.at(-1);
  const parts = [`${count} message${count === 1 ? "" : "s"} with ${request.context.agent.name}.`];
  if (first === undefined) parts.push("The person wrote nothing.");
  else parts.push(`The person first wrote "${quote(first)}"`);
  if (last !== undefined && person.length > 1) parts.push(`and last "${quote(last)}".`);
  return parts.join(" ");
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH)}…` : line;
}

function lastMention(messages: string[], name: string): string | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // The value ends at a comma, semicolon, line end, or a sentence's end (`.` then a space).
  const pattern = new RegExp(
    `(?:^|[^A-Za-z0-9_])${escaped}\\s*[:=]\\s*([^,;\\n]+?)(?=\\s*[,;\\n]|[.!?](?:\\s|$)|$)`,
    "gi",
  );
  let found: string | null = null;
  for (const message of messages) {
    for (const match of message.matchAll(pattern)) found = match[1]?.trim() || found;
  }
  return found;
}

function typed(raw: string, type: "string" | "number" | "integer" | "boolean"): unknown {
  const value = raw.replace(/[.!?]+$/, "");
  if ((type === "number" || type === "integer") && /^-?\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if (type === "boolean" && /^(yes|true)$/i.test(value)) return true;
  if (type === "boolean" && /^(no|false)$/i.test(value)) return false;
  return value;
}
