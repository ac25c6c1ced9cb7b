/**
 * The agent brain: where an agent's replies come from (docs/api/conversations.md). One interface, two brains:
 * Workers AI when the `AI` binding is configured (the agent's model and instructions), otherwise a
 * deterministic scripted brain, so local development and tests need no network and no account.
 */

import type { AiRunner } from "../platform/env";
import { resolveValue, valueAsText } from "../workflow/template";
import type { ConversationContext } from "./conversation/contract";

/** One message of the history, oldest first. */
export type HistoryMessage = { role: "agent" | "person"; text: string };

/** A reply; `end: true` means the agent ends the conversation after it. */
export type BrainReply = { text: string; end: boolean };

/** Produces the agent's reply to the newest person message (the last of `history`). */
export interface AgentBrain {
  readonly kind: "workers-ai" | "scripted";
  reply(context: ConversationContext, history: HistoryMessage[]): Promise<BrainReply>;
}

/** Model used when the agent names none. */
export const DEFAULT_MODEL = "@cf/meta/llama-3.1-8b-instruct";
/** The token a Workers AI reply ends with when the agent ends the conversation. */
const END_MARKER = "[END]";
/** Messages of history sent to the model; older ones are left out. */
const MAX_HISTORY = 30;
const FAREWELL = /\b(bye|goodbye|good bye|that's all|that is all)\b/i;

/**
 * Renders an agent text (greeting, instructions) over `{{participant.name}}`,
 * `{{parameters.<name>}}` and `{{globalTask}}`; unknown references become empty.
 */
export function renderAgentText(template: string, context: ConversationContext): string {
  const scope = {
    outputs: {
      participant: { name: context.participant.name },
      parameters: context.parameters,
      globalTask: context.globalTask,
    },
    secrets: {},
  };
  return valueAsText(resolveValue(template, scope));
}

/** The instructions the agent works under, as the model's system prompt. */
export function systemPrompt(context: ConversationContext): string {
  const lines = [
    `You are ${context.agent.name}, chatting with a person through a website widget.`,
    context.agent.instructions ? renderAgentText(context.agent.instructions, context) : "",
    context.participant.name ? `The person's name is ${context.participant.name}.` : "",
    Object.keys(context.parameters).length > 0
      ? `Facts about this conversation (JSON): ${JSON.stringify(context.parameters)}`
      : "",
    context.globalTask ? `Your task in this conversation: ${context.globalTask}` : "",
    `Answer briefly. When the conversation is complete, end your reply with ${END_MARKER}.`,
  ];
  return lines.filter((line) => line !== "").join("\n");
}

/**
 * A deterministic brain: no model, same reply for the same input. It answers from the agent's
 * instructions (lines `keyword: answer` act as a small FAQ, matched case-insensitively in the
 * message) and otherwise acknowledges the message, quoting it. A farewell ends the conversation.
 */
export class ScriptedBrain implements AgentBrain {
  readonly kind = "scripted";

  async reply(context: ConversationContext, history: HistoryMessage[]): Promise<BrainReply> {
    const message = history.findLast((m) => m.role === "person")?.text ?? "";
    const name = context.participant.name ? `, ${context.participant.name}` : "";
    if (FAREWELL.test(message))
      return { text: `Goodbye${name}! This chat is now closed.`, end: true };
    const answer = faqAnswer(context, message);
    if (answer) return { text: answer, end: false };
    const task = context.globalTask ? ` I'm here to help with: ${context.globalTask}` : "";
    return { text: `Thanks${name}. You wrote: "${message}".${task}`, end: false };
  }
}

function faqAnswer(context: ConversationContext, message: string): string | null {
  const instructions = context.agent.instructions ?? "";
  const lower = message.toLowerCase();
  for (const line of instructions.split("\n")) {
    const match = /^\s*-?\s*([^:]{2,60}):\s*(.+)$/.exec(line);
    const keyword = match?.[1]?.trim().toLowerCase();
    if (keyword && match?.[2] && lower.includes(keyword)) {
      return renderAgentText(match[2].trim(), context);
    }
  }
  return null;
}

/** The part of `Ai` this brain uses, so tests can pass a stand-in. */

/** Replies through Workers AI: the agent's model, its instructions as the system prompt. */
export class WorkersAiBrain implements AgentBrain {
  readonly kind = "workers-ai";

  constructor(private readonly ai: AiRunner) {}

  async reply(context: ConversationContext, history: HistoryMessage[]): Promise<BrainReply> {
    const messages = [
      { role: "system", content: systemPrompt(context) },
      ...history.slice(-MAX_HISTORY).map((m) => ({
        role: m.role === "agent" ? "assistant" : "user",
        content: m.text,
      })),
    ];
    const result = await this.ai.run(context.agent.model ?? DEFAULT_MODEL, { messages });
    const raw = (result as { response?: unknown } | null)?.response;
    const text = typeof raw === "string" ? raw.trim() : "";
    const end = text.endsWith(END_MARKER);
    const reply = end ? text.slice(0, -END_MARKER.length).trim() : text;
    return { text: reply || "Sorry, I could not answer that. Could you rephrase?", end };
  }
}

/** Workers AI when the binding is configured, otherwise the scripted brain. */
export function chooseBrain(env: { AI?: AiRunner }): AgentBrain {
  return env.AI ? new WorkersAiBrain(env.AI) : new ScriptedBrain();
}
