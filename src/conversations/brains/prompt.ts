/**
 * What a model is told (docs/api/conversations.md#the-prompt): a system prompt with the agent's
 * instructions, the person's name, the parameters and the globalTask, then as much of the history,
 * newest first, as fits a token budget, estimated without a tokenizer.
 */
import { resolveValue, valueAsText } from "../../workflows";
import type { ConversationContext } from "../conversation/contract";
import type { HistoryMessage } from "./types";

/** The token a model's reply ends with when the agent ends the conversation. */
export const END_MARKER = "[END]";

/**
 * Estimated tokens of history a model gets with each reply; older messages are left out. Small
 * enough for an 8k-token context with the system prompt and the reply (Workers AI's Llama 3.1 8B).
 */
export const HISTORY_TOKEN_BUDGET = 3_000;

/** Estimated tokens a message costs beyond its text (role and separators in the chat template). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** The most messages that could fit the budget (each costs at least overhead + 1): what is read. */
export const HISTORY_READ_LIMIT = Math.floor(HISTORY_TOKEN_BUDGET / (MESSAGE_OVERHEAD_TOKENS + 1));

const encoder = new TextEncoder();

/**
 * Tokens of `text`, estimated as one per 3 bytes of UTF-8, rounded up. Tokenizers of Llama and
 * GPT models give about one token per 4 bytes of English and per 2-3 bytes of other scripts, so
 * this errs towards more tokens: the budget is kept, never overrun, by a real tokenizer.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / 3);
}

/**
 * The newest messages of `history` (oldest first) whose estimated tokens, each with
 * MESSAGE_OVERHEAD_TOKENS, fit `budget`; the newest message is always kept, whatever its size.
 */
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
