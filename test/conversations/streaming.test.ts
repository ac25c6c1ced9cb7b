/**
 * Replies that stream (docs/api/conversations.md#replies): the OpenAI-compatible brain against a
 * fake chat-completions server on 127.0.0.1 (test/helpers/fake-openai.mjs), whose streams end,
 * break midway or are refused; and the ReplyDesk on a conversation's real storage, which sends
 * the pieces as `delta` frames and stores a reply once, whole, marked `interrupted` when cut off.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { APIError } from "openai/core/error";
import { describe, expect, it } from "vitest";
import { type AgentBrain, OpenAiCompatibleBrain } from "../../src/conversations/brains";
import type {
  ConversationContext,
  ConversationFacts,
} from "../../src/conversations/conversation/contract";
import { ReplyDesk, replyWithin } from "../../src/conversations/conversation/replies";
import { ConversationStore } from "../../src/conversations/conversation/store";
import { REPLY } from "../helpers/fake-openai.mjs";

const FAKE_LLM_URL = (env as unknown as { FAKE_LLM_URL: string }).FAKE_LLM_URL;

const context: ConversationContext = {
  agent: { name: "Onboarding", instructions: "Help {{participant.name}} onboard.", model: null },
  participant: { name: "Ada" },
  parameters: { plan: "Pro" },
  globalTask: "Confirm the plan.",
};
const history = [
  { role: "agent" as const, text: "Hi Ada" },
  { role: "person" as const, text: "Is my plan ready?" },
];

/** The brain against scenario `scenario` of the fake server; requests are kept under `id`. */
function fakeBrain(scenario: "ok" | "cut" | "error", id: string): OpenAiCompatibleBrain {
  return new OpenAiCompatibleBrain({
    baseUrl: `${FAKE_LLM_URL}/${scenario}/${id}/v1/`,
    apiKey: "sk-test-key",
    model: "fake-model",
  });
}

async function received(
  id: string,
): Promise<{ authorization: string; body: Record<string, unknown> }[]> {
  return (await fetch(`${FAKE_LLM_URL}/requests/${id}`)).json();
}

describe("OpenAiCompatibleBrain (against a fake server)", () => {
  it("streams the pieces, holds back the end marker, and sends the model, key and prompt", async () => {
    const pieces: string[] = [];
    const reply = await fakeBrain("ok", "stream").reply(
      context,
      history,
      (text) => pieces.push(text),
      new AbortController().signal,
    );
    expect(reply).toEqual({ text: "Hello Ada, the **Pro** plan is ready.", end: true });
    expect(pieces.slice(0, 3)).toEqual(REPLY.slice(0, 3));
    expect(pieces.join("")).not.toContain("[");
    const [request] = await received("stream");
    expect(request?.authorization).toBe("Bearer sk-test-key");
    expect(request?.body).toMatchObject({ model: "fake-model", stream: true });
    const messages = request?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.role).toBe("system");
    expect(messages[0]?.content).toContain("Help Ada onboard.");
    expect(messages[0]?.content).toContain('"plan":"Pro"');
    expect(messages[0]?.content).toContain("Confirm the plan.");
    expect(messages.slice(1)).toEqual([
      { role: "assistant", content: "Hi Ada" },
      { role: "user", content: "Is my plan ready?" },
    ]);
  });

  it("a stream cut midway rejects after the pieces it brought; replyWithin keeps them as partial", async () => {
    const pieces: string[] = [];
    const outcome = await replyWithin(fakeBrain("cut", "cut"), context, history, 5_000, (text) =>
      pieces.push(text),
    );
    expect(pieces).toEqual(REPLY.slice(0, 2));
    expect(outcome).toEqual({ ok: false, reason: "failed", partial: REPLY.slice(0, 2).join("") });
  });

  it("a refused call is the package's APIError with the status", async () => {
    const reply = fakeBrain("error", "refused").reply(
      context,
      history,
      () => {},
      new AbortController().signal,
    );
    await expect(reply).rejects.toBeInstanceOf(APIError);
    await expect(reply).rejects.toMatchObject({ status: 401 });
  });
});

const facts = { ...context, sessionId: "s", linkId: "l" } as unknown as ConversationFacts;

/** A socket stand-in that keeps the frames sent to it. */
function recordingSocket() {
  const frames: { type: string; id?: string; text?: string; message?: Record<string, unknown> }[] =
    [];
  const socket = { send: (data: string) => frames.push(JSON.parse(data)) } as unknown as WebSocket;
  return { socket, frames };
}

/**
 * Runs a ReplyDesk with `brain` on a fresh conversation's storage, the person's message stored,
 * and hands over what it sent, what it stored, and what the store held while the reply streamed.
 */
async function answerWith(brain: AgentBrain) {
  const stub = env.CONVERSATION.get(env.CONVERSATION.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const store = new ConversationStore(state.storage.sql);
    store.setState({ endedAt: null, endReason: null, lastActivityAt: Date.now() });
    store.addMessage({ id: "msg_p", role: "person", text: "Is my plan ready?", at: Date.now() });
    const { socket, frames } = recordingSocket();
    const duringStream: number[] = [];
    const ends: boolean[] = [];
    const watched: AgentBrain = {
      kind: brain.kind,
      analyze: (request, signal) => brain.analyze(request, signal),
      reply: (c, h, onDelta, signal) =>
        brain.reply(
          c,
          h,
          (text) => {
            onDelta(text);
            duringStream.push(store.messages().length);
          },
          signal,
        ),
    };
    const desk = new ReplyDesk(watched, store, () => [socket], {
      post: (reply) => {
        store.addMessage({ ...reply, role: "agent", at: Date.now() });
        socket.send(JSON.stringify({ type: "message", message: reply }));
      },
      after: async (end) => {
        ends.push(end);
      },
    });
    await desk.answer(facts);
    // A store opened again on the same storage (the object restarted) sees the same rows.
    const stored = new ConversationStore(state.storage.sql).messages();
    return { frames, stored, duringStream, ends };
  });
}

describe("ReplyDesk streaming (docs/api/conversations.md#replies)", () => {
  it("sends typing, each piece as a delta of the coming message, then stores and sends it once", async () => {
    const { frames, stored, duringStream, ends } = await answerWith(fakeBrain("ok", "desk"));
    const deltas = frames.filter((f) => f.type === "delta");
    const final = frames.at(-1);
    expect(frames[0]).toEqual({ type: "typing", active: true });
    // The space before the held-back end marker went out; the message is the text trimmed.
    expect(deltas.map((d) => d.text).join("")).toBe("Hello Ada, the **Pro** plan is ready. ");
    expect(new Set(deltas.map((d) => d.id))).toEqual(new Set([final?.message?.id]));
    expect(final?.message).toMatchObject({ text: "Hello Ada, the **Pro** plan is ready." });
    expect(final?.message?.interrupted).toBeUndefined();
    // Nothing of the reply was written while it streamed.
    expect(new Set(duringStream)).toEqual(new Set([1]));
    expect(stored.map((m) => [m.role, m.text, m.interrupted])).toEqual([
      ["person", "Is my plan ready?", undefined],
      ["agent", "Hello Ada, the **Pro** plan is ready.", undefined],
    ]);
    expect(ends).toEqual([true]);
  });

  it("a stream cut midway leaves one whole message of what came, marked interrupted", async () => {
    const { frames, stored, duringStream, ends } = await answerWith(fakeBrain("cut", "desk-cut"));
    const text = REPLY.slice(0, 2).join("").trim();
    expect(frames.filter((f) => f.type === "delta").map((d) => d.text)).toEqual(REPLY.slice(0, 2));
    expect(frames.some((f) => f.type === "error")).toBe(false);
    expect(frames.at(-1)?.message).toMatchObject({ text, interrupted: true });
    expect(new Set(duringStream)).toEqual(new Set([1]));
    expect(stored.at(-1)).toMatchObject({ role: "agent", text, interrupted: true });
    expect(stored).toHaveLength(2);
    expect(ends).toEqual([false]);
  });

  it("a brain that fails before any text stores nothing and says reply_failed", async () => {
    const { frames, stored } = await answerWith(fakeBrain("error", "desk-refused"));
    expect(frames.at(-1)).toMatchObject({ type: "error", error: { code: "reply_failed" } });
    expect(stored).toHaveLength(1);
  });
});

describe("ConversationStore", () => {
  it("adds the interrupted column to a messages table from before streaming", async () => {
    const stub = env.CONVERSATION.get(env.CONVERSATION.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      // The object's constructor made today's table; put the old one in its place.
      state.storage.sql.exec("DROP TABLE messages");
      state.storage.sql.exec(`CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)`);
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, text, at) VALUES ('m1', 'agent', 'Hi', 1)",
      );
      const store = new ConversationStore(state.storage.sql);
      store.addMessage({ id: "m2", role: "agent", text: "Half", at: 2, interrupted: true });
      expect(store.messages()).toEqual([
        { id: "m1", role: "agent", text: "Hi", at: 1 },
        { id: "m2", role: "agent", text: "Half", at: 2, interrupted: true },
      ]);
    });
  });
});
