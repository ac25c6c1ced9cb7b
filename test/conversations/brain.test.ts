import { describe, expect, it } from "vitest";
import {
  chooseBrain,
  DEFAULT_MODEL,
  renderAgentText,
  ScriptedBrain,
  WorkersAiBrain,
} from "../../src/conversations/brains";
import type { ConversationContext } from "../../src/conversations/conversation/contract";

const context: ConversationContext = {
  agent: {
    name: "Onboarding",
    instructions:
      "Help {{participant.name}} finish onboarding.\n- pricing: The {{parameters.plan}} plan costs 10 EUR.",
    model: null,
  },
  participant: { name: "Ada" },
  parameters: { plan: "Pro", seats: 3 },
  globalTask: "Confirm the address.",
};

describe("renderAgentText", () => {
  it("fills participant, parameters and globalTask; unknown references and secrets are empty", () => {
    expect(
      renderAgentText(
        "Hi {{participant.name}}, {{parameters.plan}} x{{parameters.seats}}. {{globalTask}}{{parameters.none}}{{secrets.KEY}}",
        context,
      ),
    ).toBe("Hi Ada, Pro x3. Confirm the address.");
  });
});

const signal = new AbortController().signal;

/** The SSE body Workers AI streams for `pieces` (`data: {"response": …}` each, then [DONE]). */
function workersAiStream(pieces: string[]): ReadableStream<Uint8Array> {
  const events = pieces.map((response) => `data: ${JSON.stringify({ response })}\n\n`);
  return new Response([...events, "data: [DONE]\n\n"].join("")).body as ReadableStream<Uint8Array>;
}

describe("ScriptedBrain", () => {
  const brain = new ScriptedBrain(0);
  it("answers from an instructions FAQ line, templated", async () => {
    const reply = await brain.reply(context, [{ role: "person", text: "What about PRICING?" }]);
    expect(reply).toEqual({ text: "The Pro plan costs 10 EUR.", end: false });
  });
  it("streams its reply a word at a time, the pieces making up the whole text", async () => {
    const pieces: string[] = [];
    const reply = await brain.reply(
      context,
      [{ role: "person", text: "What about pricing?" }],
      (text) => pieces.push(text),
      signal,
    );
    expect(pieces).toEqual(["The ", "Pro ", "plan ", "costs ", "10 ", "EUR."]);
    expect(pieces.join("")).toBe(reply.text);
  });
  it("stops streaming when aborted", async () => {
    const abort = new AbortController();
    const pieces: string[] = [];
    const reply = new ScriptedBrain(5).reply(
      context,
      [{ role: "person", text: "Hello there" }],
      (text) => {
        pieces.push(text);
        if (pieces.length === 2) abort.abort(new Error("deadline"));
      },
      abort.signal,
    );
    await expect(reply).rejects.toThrow("deadline");
    expect(pieces).toHaveLength(2);
  });
  it("otherwise acknowledges the message, quoting it, with the task", async () => {
    const reply = await brain.reply(context, [{ role: "person", text: "Hello there" }]);
    expect(reply).toEqual({
      text: 'Thanks, Ada. You wrote: "Hello there". I\'m here to help with: Confirm the address.',
      end: false,
    });
  });
  it("ends the conversation on a farewell", async () => {
    const reply = await brain.reply(context, [{ role: "person", text: "ok bye" }]);
    expect(reply.end).toBe(true);
  });
});

describe("WorkersAiBrain", () => {
  it("streams the agent's model with a system prompt of what the agent knows and the history", async () => {
    type Input = { messages: { role: string; content: string }[]; stream: boolean };
    const calls: { model: string; input: Input }[] = [];
    const ai = {
      async run(model: string, input: unknown) {
        calls.push({ model, input: input as Input });
        return workersAiStream(["Sure", ", Ada.", " [END", "]"]);
      },
    };
    const brain = chooseBrain({ AI: ai });
    expect(brain.kind).toBe("workers-ai");
    const pieces: string[] = [];
    const reply = await brain.reply(
      context,
      [
        { role: "agent", text: "Hi Ada" },
        { role: "person", text: "Done?" },
      ],
      (text) => pieces.push(text),
      signal,
    );
    expect(reply).toEqual({ text: "Sure, Ada.", end: true });
    // The end marker is held back, never shown to the person.
    expect(pieces.join("")).toBe("Sure, Ada. ");
    expect(calls[0]?.input.stream).toBe(true);
    expect(calls[0]?.model).toBe(DEFAULT_MODEL);
    const [system, ...history] = calls[0]?.input.messages ?? [];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("Help Ada finish onboarding.");
    expect(system?.content).toContain("Ada");
    expect(system?.content).toContain('"plan":"Pro"');
    expect(system?.content).toContain("Confirm the address.");
    expect(history).toEqual([
      { role: "assistant", content: "Hi Ada" },
      { role: "user", content: "Done?" },
    ]);
    const named = new WorkersAiBrain(ai);
    const agent = { ...context.agent, model: "@cf/x/y" };
    await named.reply({ ...context, agent }, [], () => {}, signal);
    expect(calls[1]?.model).toBe("@cf/x/y");
  });

  it("fails a model that does not stream", async () => {
    const brain = new WorkersAiBrain({ run: async () => ({ response: "whole" }) });
    await expect(brain.reply(context, [], () => {}, signal)).rejects.toThrow("did not stream");
  });

  it("falls back to the scripted brain without the AI binding", () => {
    expect(chooseBrain({}).kind).toBe("scripted");
  });

  it("prefers an OpenAI-compatible endpoint when all three LLM_* are set", () => {
    const llm = { LLM_BASE_URL: "http://127.0.0.1:1/v1", LLM_API_KEY: "k", LLM_MODEL: "m" };
    const ai = { run: async () => null };
    expect(chooseBrain({ AI: ai, ...llm }).kind).toBe("openai");
    expect(chooseBrain({ AI: ai, ...llm, LLM_MODEL: undefined }).kind).toBe("workers-ai");
    expect(chooseBrain({ ...llm, LLM_API_KEY: "" }).kind).toBe("scripted");
  });
});
