import { describe, expect, it } from "vitest";
import type { AgentBrain } from "../../src/conversations/brains";
import { admitRetry, RETRIES_PER_MINUTE } from "../../src/conversations/conversation/admission";
import type { ConversationContext } from "../../src/conversations/conversation/contract";
import { replyWithin } from "../../src/conversations/conversation/replies";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, type Frame, open } from "../helpers/chat";

const context: ConversationContext = {
  agent: { name: "Onboarding", instructions: null, model: null },
  participant: { name: "Ada" },
  parameters: {},
  globalTask: null,
};
const history = [{ role: "person" as const, text: "Hello" }];

/** A brain whose reply is whatever `answer` does. */
function brain(answer: () => Promise<{ text: string; end: boolean }>): AgentBrain {
  return { kind: "scripted", reply: answer, analyze: async () => ({}) };
}

describe("replyWithin (docs/api/conversations.md#replies)", () => {
  it("hands over the brain's reply", async () => {
    const outcome = await replyWithin(
      brain(async () => ({ text: "Hi", end: false })),
      context,
      history,
      1_000,
    );
    expect(outcome).toEqual({ ok: true, reply: { text: "Hi", end: false } });
  });

  it("turns a brain that throws into a failure, never an exception", async () => {
    const outcome = await replyWithin(
      brain(async () => {
        throw new Error("model overloaded");
      }),
      context,
      history,
      1_000,
    );
    expect(outcome).toEqual({ ok: false, reason: "failed", partial: "" });
  });

  it("gives up at the deadline on a brain that does not answer", async () => {
    const started = Date.now();
    const outcome = await replyWithin(
      brain(() => new Promise(() => {})),
      context,
      history,
      50,
    );
    expect(outcome).toEqual({ ok: false, reason: "timeout", partial: "" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("admitRetry (docs/limits.md#chat)", () => {
  it(`allows ${RETRIES_PER_MINUTE} retries in any 60 s, then says how long to wait`, () => {
    const now = 1_000_000;
    const recent = Array.from({ length: RETRIES_PER_MINUTE }, (_, i) => now - 50_000 + i);
    expect(admitRetry(recent.slice(1), now)).toBeNull();
    expect(admitRetry(recent, now)).toEqual({
      code: "rate_limited",
      message: `At most ${RETRIES_PER_MINUTE} retries per minute.`,
      details: [{ retryAfterSeconds: 10 }],
    });
  });
});

describe("typing and retry frames (docs/api/conversations.md#socket-protocol)", () => {
  it("a socket learns on opening that nobody writes; a message gets typing, the reply's pieces, then the reply", async () => {
    const ws = await seedWorkspace();
    const client = await connect((await open((await createLaunch(ws)).token)).socketUrl as string);
    expect(await client.next()).toEqual({ type: "typing", active: false });
    client.send({ type: "message", text: "Hello there" });
    expect((await client.next()).message?.role).toBe("person");
    expect(await client.next()).toEqual({ type: "typing", active: true });
    const deltas: Frame[] = [];
    let frame = await client.next();
    while (frame.type === "delta") {
      deltas.push(frame);
      frame = await client.next();
    }
    expect(frame.message?.role).toBe("agent");
    // The scripted brain streams word by word; the pieces, joined, are the stored message.
    expect(deltas.length).toBeGreaterThan(3);
    expect(new Set(deltas.map((d) => d.id))).toEqual(new Set([frame.message?.id]));
    expect(deltas.map((d) => d.text).join("")).toBe(frame.message?.text);
    expect(frame.message?.interrupted).toBeUndefined();
  });

  it("retry sends the existing reply to the newest message again, and writes nothing new", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    client.send({ type: "message", text: "Hello there" });
    await client.next("message");
    const reply = await client.next("message");
    client.send({ type: "retry" });
    expect(await client.next("message")).toEqual(reply);
    const session = await open(link.token);
    expect(session.messages.map((m) => m.role)).toEqual(["agent", "person", "agent"]);
  });

  it("retry with nothing to answer (a responder's empty chat) is refused", async () => {
    const ws = await seedWorkspace();
    await expectJson(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { mode: "responder" },
      }),
      200,
    );
    const client = await connect((await open((await createLaunch(ws)).token)).socketUrl as string);
    client.send({ type: "retry" });
    expect((await client.next("error")).error?.code).toBe("invalid_message");
  });
});
