/**
 * The prompt's cap on history (docs/api/conversations.md#the-prompt): estimated tokens, the newest
 * messages that fit the budget, the newest always; the model gets the system prompt and those.
 */
import { describe, expect, it } from "vitest";
import {
  chatMessages,
  estimateTokens,
  HISTORY_READ_LIMIT,
  HISTORY_TOKEN_BUDGET,
  historyWithinBudget,
  MESSAGE_OVERHEAD_TOKENS,
} from "../../src/conversations/brains/prompt";
import type { ConversationContext } from "../../src/conversations/conversation/contract";

const context: ConversationContext = {
  agent: { name: "Onboarding", instructions: null, model: null },
  participant: { name: "Ada" },
  parameters: {},
  globalTask: null,
};

/** A message of exactly `tokens` estimated tokens (3 ASCII bytes each), overhead not counted. */
const sized = (tokens: number, role: "agent" | "person" = "person", mark = "x") => ({
  role,
  text: mark.repeat(tokens * 3),
});

describe("estimateTokens", () => {
  it("counts one token per 3 bytes of UTF-8, rounded up, so other scripts cost more", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abc")).toBe(1);
    expect(estimateTokens("abcd")).toBe(2);
    // Three bytes a character in UTF-8: one token each.
    expect(estimateTokens("日本語")).toBe(3);
  });
});

describe("historyWithinBudget", () => {
  it("keeps the newest messages whose tokens and overhead fit, dropping the oldest", () => {
    const history = [sized(50, "person", "a"), sized(50, "agent", "b"), sized(50, "person", "c")];
    const per = 50 + MESSAGE_OVERHEAD_TOKENS;
    expect(historyWithinBudget(history, per * 3)).toEqual(history);
    expect(historyWithinBudget(history, per * 3 - 1)).toEqual(history.slice(1));
    expect(historyWithinBudget(history, per * 2 - 1)).toEqual(history.slice(2));
  });

  it("always keeps the newest message, even over the budget", () => {
    const history = [sized(10), sized(500)];
    expect(historyWithinBudget(history, 100)).toEqual([history[1]]);
    expect(historyWithinBudget([], 100)).toEqual([]);
  });

  it("caps a long conversation at the documented budget", () => {
    const history = Array.from({ length: 400 }, (_, i) =>
      sized(20, i % 2 ? "agent" : "person", String(i % 10)),
    );
    const kept = historyWithinBudget(history);
    const used = kept.reduce((sum, m) => sum + estimateTokens(m.text) + MESSAGE_OVERHEAD_TOKENS, 0);
    expect(kept.length).toBe(Math.floor(HISTORY_TOKEN_BUDGET / (20 + MESSAGE_OVERHEAD_TOKENS)));
    expect(used).toBeLessThanOrEqual(HISTORY_TOKEN_BUDGET);
    expect(kept.at(-1)).toBe(history.at(-1));
    // Reading HISTORY_READ_LIMIT messages is enough: none could fit beyond it.
    expect(kept.length).toBeLessThanOrEqual(HISTORY_READ_LIMIT);
  });
});

describe("chatMessages", () => {
  it("is the system prompt, then the capped history as user and assistant turns", () => {
    const history = [
      sized(HISTORY_TOKEN_BUDGET, "agent"),
      { role: "person" as const, text: "Hello" },
    ];
    const messages = chatMessages(context, history);
    expect(messages[0]?.role).toBe("system");
    expect(messages[0]?.content).toContain("The person's name is Ada.");
    expect(messages.slice(1)).toEqual([{ role: "user", content: "Hello" }]);
  });
});
