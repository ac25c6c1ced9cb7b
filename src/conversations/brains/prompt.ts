/** What a model is told: system prompt, history in a budget (docs/api/conversations.md#the-prompt). */
import { resolveValue, valueAsText } from "../../workflows";
import type { ConversationContext } from "../conversation/contract";
import type { HistoryMessage } from "./types";

/** The token a model's reply ends with when the agent ends the conversation. */
export const END_MARKER = "[END]";

/** Estimated history tokens per reply: fits Llama 3.1 8B's 8k context with prompt and reply. */
export const HISTORY_TOKEN_BUDGET = 3_000;

/** Estimated tokens a message costs beyond its text (role and separators in the chat template). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** The most messages that could fit the budget (each costs at least overhead + 1): what is read. */
export const HISTORY_READ_LIMIT = Math.floor(HISTORY_TOKEN_BUDGET / (MESSAGE_OVERHEAD_TOKENS + 1));

const encoder = new TextEncoder();

/**
 * Tokens of `text`, estimated as one per 3 bytes of UTF-8: real tokenizers give one per 2-4 bytes,
 * so the budget errs towards more and is never overrun.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / 3);
}

/** The newest messages of `history` (oldest first) that fit `budget`; the newest always kept. */
export function historyWithinBudget(
  history: HistoryMessage[],
  budget = HISTORY_TOKEN_BUDGET,
): HistoryMessage[] {
  let used = 0;
  let first = history.length;
  while (first > 0) {
    const cost = estimateTokens(history[first - 1]?.text ?? "") + MESSAGE_OVERHEAD_TOKENS;
    if (used + cost > budget && first < history.length) break;
    used += cost;
    first -= 1;
  }
  return history.slice(first);
}

/** Renders `{{participant.name}}`, `{{parameters.<name>}}`, `{{globalTask}}`; unknown: empty. */
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

/** A chat-completions message. */
export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** The model's messages: the system prompt, then the history within the token budget. */
export function chatMessages(
  context: ConversationContext,
  history: HistoryMessage[],
): ChatMessage[] {
  return [
    { role: "system", content: systemPrompt(context) },
    ...historyWithinBudget(history).map(
      (m): ChatMessage => ({ role: m.role === "agent" ? "assistant" : "user", content: m.text }),
    ),
  ];
}
