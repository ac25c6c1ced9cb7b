import { describe, expect, it } from "vitest";
import {
  chooseBrain,
  DEFAULT_MODEL,
  renderAgentText,
  ScriptedBrain,
  WorkersAiBrain,
} from "../../src/conversations/brain";
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

describe("ScriptedBrain", () => {
  const brain = new ScriptedBrain();
  it("answers from an instructions FAQ line, templated", async () => {
    const reply = await brain.reply(context, [{ role: "person", text: "What about PRICING?" }]);
    expect(reply).toEqual({ text: "The Pro plan costs 10 EUR.", end: false });
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
  it("sends the agent's model, a system prompt with what the agent knows, and the history", async () => {
    const calls: { model: string; input: { messages: { role: string; content: string }[] } }[] = [];
    const ai = {
      async run(model: string, input: unknown) {
        calls.push({ model, input: input as (typeof calls)[number]["input"] });
        return { response: "Sure, Ada. [END]" };
      },
    };
    const brain = chooseBrain({ AI: ai });
    expect(brain.kind).toBe("workers-ai");
    const reply = await brain.reply(context, [
      { role: "agent", text: "Hi Ada" },
      { role: "person", text: "Done?" },
    ]);
    expect(reply).toEqual({ text: "Sure, Ada.", end: true });
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
    await named.reply({ ...context, agent: { ...context.agent, model: "@cf/x/y" } }, []);
    expect(calls[1]?.model).toBe("@cf/x/y");
  });

  it("falls back to the scripted brain without the AI binding", () => {
    expect(chooseBrain({}).kind).toBe("scripted");
  });
});
