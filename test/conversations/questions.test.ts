/**
 * ask_person's question in the conversation (docs/chat.md#questions): the `answer` frame checked,
 * stored and shown as the person's message, the question closed, and the asker told through the
 * outbox (at least once) of the answer, or of the closing when the conversation or link ends.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { call, seedWorkspace } from "../helpers/api";
import { type Client, connect, createLaunch, type Frame, open } from "../helpers/chat";
import { installRunnerDouble, until, workflowMessage, YES_NO } from "../helpers/workflow-chat";

afterEach(() => {
  vi.useRealTimers();
});

type QuestionFrame = Frame & {
  message?: Frame["message"] & {
    answerTo?: string;
    question?: { id: string; closed?: boolean };
  };
};

/** An opened link with a socket, a runner double, and a question posted to it. */
async function asked(
  question: Parameters<typeof workflowMessage>[1] = { options: YES_NO },
  linkExtra: Record<string, unknown> = {},
) {
  const ws = await seedWorkspace();
  const link = await createLaunch(ws, linkExtra);
  const session = await open(link.token);
  const stub = conversation(env, session.sessionId);
  const runner = await installRunnerDouble(stub);
  const client = await connect(session.socketUrl as string);
  await client.next("typing");
  const message = workflowMessage("Update your card now?", question);
  const target = {
    linkId: link.id,
    workspaceId: ws.workspaceId,
    expiresAt: Date.now() + 3_600_000,
  };
  expect(await stub.postWorkflowMessage(message, target)).toMatchObject({ delivered: "live" });
  const shown = (await client.next("message")) as QuestionFrame;
  const questionId = message.question?.id as string;
  expect(shown.message?.question).toEqual({
    id: questionId,
    options: question.options ?? [],
    allowText: question.allowText ?? false,
  });
  return { ws, link, session, stub, runner, client, questionId, message };
}

/** The person's answer message and the question's message again, closed. */
async function answered(client: Client) {
  const mine = (await client.next("message")) as QuestionFrame;
  const closed = (await client.next("message")) as QuestionFrame;
  return { mine: mine.message, closed: closed.message };
}

describe("answering a question (docs/chat.md#questions)", () => {
  it("by a button: shown as the person's message with the label; the asker gets the value", async () => {
    const { stub, runner, client, questionId, message, link } = await asked();
    client.send({ type: "answer", questionId, value: "yes" });
    const { mine, closed } = await answered(client);
    expect(mine).toMatchObject({ role: "person", text: "Yes, update it", answerTo: questionId });
    expect(closed).toMatchObject({ id: message.id, question: { id: questionId, closed: true } });
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toEqual([
      {
        method: "answerQuestion",
        shard: "wfl_asker#1",
        arg: {
          executionId: message.question?.asker.executionId,
          nodeKey: "ask",
          questionId,
          answer: "yes",
          answeredAt: expect.any(Number),
        },
      },
    ]);
    // The agent does not reply to an answer, and a reload shows the question closed.
    const history = await stub.transcript();
    expect(history.at(-1)).toMatchObject({ role: "person", answerTo: questionId });
    const reopened = await open(link.token);
    const shown = reopened.messages.find((m) => m.id === message.id) as QuestionFrame["message"];
    expect(shown?.question?.closed).toBe(true);
  });

  it("by text when allowed, trimmed, as the answer and the person's message", async () => {
    const { runner, client, questionId } = await asked({ allowText: true });
    client.send({ type: "answer", questionId, value: "  Next week, please " });
    const { mine } = await answered(client);
    expect(mine).toMatchObject({ role: "person", text: "Next week, please" });
    await until(() => runner.calls.length > 0);
    expect(runner.calls[0]?.arg).toMatchObject({ answer: "Next week, please" });
  });

  it("refuses a value not among the options, empty or too long text; the question stays open", async () => {
    const buttons = await asked();
    buttons.client.send({ type: "answer", questionId: buttons.questionId, value: "maybe" });
    expect((await buttons.client.next("error")).error).toMatchObject({
      code: "invalid_request",
      details: [{ field: "value", code: "invalid_option" }],
    });
    const text = await asked({ options: YES_NO, allowText: true });
    text.client.send({ type: "answer", questionId: text.questionId, value: "   " });
    expect((await text.client.next("error")).error?.code).toBe("invalid_request");
    text.client.send({ type: "answer", questionId: text.questionId, value: "x".repeat(2_001) });
    expect((await text.client.next("error")).error?.code).toBe("message_too_long");
    // Still open: a good answer goes through.
    text.client.send({ type: "answer", questionId: text.questionId, value: "no" });
    expect((await answered(text.client)).mine?.text).toBe("Not now");
  });

  it("a second answer, or one to an unknown question, gets question_closed", async () => {
    const { runner, client, questionId } = await asked();
    client.send({ type: "answer", questionId, value: "yes" });
    await answered(client);
    client.send({ type: "answer", questionId, value: "no" });
    expect((await client.next("error")).error?.code).toBe("question_closed");
    client.send({ type: "answer", questionId: "qst_unknown", value: "yes" });
    expect((await client.next("error")).error?.code).toBe("question_closed");
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toHaveLength(1);
  });

  it("closeQuestion (its asker timed out): shown closed, answers refused, the asker not told", async () => {
    const { stub, runner, client, questionId } = await asked();
    expect(await stub.closeQuestion(questionId)).toBe(true);
    const again = (await client.next("message")) as QuestionFrame;
    expect(again.message?.question).toMatchObject({ id: questionId, closed: true });
    expect(await stub.closeQuestion(questionId)).toBe(false); // a repeat: nothing more
    client.send({ type: "answer", questionId, value: "yes" });
    expect((await client.next("error")).error?.code).toBe("question_closed");
    await runDurableObjectAlarm(stub);
    expect(runner.calls).toEqual([]);
    const last = (await stub.transcript()).at(-1);
    expect(last?.question).toMatchObject({ id: questionId, closed: true });
  });

  it("a failed delivery to the asker is retried by the alarm until it gets through", async () => {
    const { stub, runner, client, questionId } = await asked();
    runner.failures = 1;
    const at = Date.now();
    client.send({ type: "answer", questionId, value: "no" });
    await answered(client);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runner.calls).toEqual([]);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at + 60_000);
    await runDurableObjectAlarm(stub);
    await until(() => runner.calls.length > 0);
    expect(runner.calls.map((c) => [c.method, (c.arg as { answer: string }).answer])).toEqual([
      ["answerQuestion", "no"],
    ]);
  });
});

describe("closing open questions (docs/chat.md#questions)", () => {
  it("the conversation ending closes each open question: the page sees it closed, the asker is told", async () => {
    const { stub, runner, client, questionId } = await asked();
    await stub.end("person");
    const closed = (await client.next("message")) as QuestionFrame;
    expect(closed.message?.question).toMatchObject({ id: questionId, closed: true });
    await client.next("ended");
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toEqual([
      {
        method: "closeQuestion",
        shard: "wfl_asker#1",
        arg: expect.objectContaining({ questionId, nodeKey: "ask", closedAt: expect.any(Number) }),
      },
    ]);
    // An answered question is not closed again when the conversation ends.
    const other = await asked();
    other.client.send({ type: "answer", questionId: other.questionId, value: "yes" });
    await answered(other.client);
    await other.stub.end("person");
    await until(() => other.runner.calls.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(other.runner.calls.map((c) => c.method)).toEqual(["answerQuestion"]);
  });

  it("revoking the link closes its open questions", async () => {
    const { ws, link, runner, client, questionId } = await asked();
    const revoked = await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    expect(revoked.status).toBe(204);
    await client.next("revoked");
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toMatchObject([{ method: "closeQuestion", arg: { questionId } }]);
  });

  it("a link never opened: revoking it, or its expiry (alarm), closes its questions", async () => {
    const now = Date.now();
    const link = { linkId: "lnk_x", workspaceId: "wsp_x", expiresAt: now + 60_000 };

    const revoked = conversation(env, `ses_q_revoked_${now}`);
    await revoked.postWorkflowMessage(workflowMessage("Confirm?", { options: YES_NO }), link, now);
    const revokedRunner = await installRunnerDouble(revoked);
    await revoked.revoke(now + 1_000);
    await until(() => revokedRunner.calls.length > 0);
    expect(revokedRunner.calls).toMatchObject([
      { method: "closeQuestion", arg: { closedAt: now + 1_000 } },
    ]);

    const expiring = conversation(env, `ses_q_expiring_${now}`);
    const asking = workflowMessage("Confirm?", { options: YES_NO });
    await expiring.postWorkflowMessage(asking, link, now);
    const runner = await installRunnerDouble(expiring);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now + 30_000);
    await runDurableObjectAlarm(expiring);
    expect(runner.calls).toEqual([]);
    vi.setSystemTime(now + 60_000);
    await runDurableObjectAlarm(expiring);
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toMatchObject([
      { method: "closeQuestion", arg: { questionId: asking.question?.id, closedAt: now + 60_000 } },
    ]);
  });

  it("the link expiring mid-chat closes its open questions", async () => {
    // Five minutes, the shortest link: it expires before the chat idles out.
    const { stub, runner, client, questionId } = await asked(undefined, { expiresInSeconds: 300 });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 301_000);
    await runDurableObjectAlarm(stub);
    await client.next("expired");
    await until(() => runner.calls.length > 0);
    expect(runner.calls).toMatchObject([{ method: "closeQuestion", arg: { questionId } }]);
  });
});
