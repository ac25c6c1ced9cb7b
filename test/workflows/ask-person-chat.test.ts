/**
 * The person nodes with the real Conversation, end to end (docs/workflows.md): a workflow makes a
 * link, mails its URL, writes to it before anyone opened it and asks a question; the person opens
 * the link, sees both after the greeting, answers with a button, and the execution goes on by
 * `answered` with the answer.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { WorkflowRunner } from "../../src/index";
import { actionId } from "../../src/workflows/runner/person-actions";
import { expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, open } from "../helpers/chat";
import { alarmAt } from "../helpers/flow-gather";
import { createWorkflow, ECHO_URL, execution, hook } from "../helpers/workflows";

/** The nodes that make a link and mail its URL to the echo server's `inbox`. */
const linkAndMail = (ws: Workspace, inbox: string) => [
  { type: "webhook" },
  {
    key: "link",
    type: "create_link",
    flowId: ws.agentId,
    channelId: ws.channelId,
    parameters: { plan: "basic" },
    participant: { name: "Ann" },
  },
  {
    key: "mail",
    type: "http_request",
    method: "POST",
    url: `${ECHO_URL}/receiver/${inbox}?fail=0`,
    body: { url: "{{link.url}}" },
  },
];

/** The execution once its last node waits (the question asked). */
const asking = (ws: Workspace, workflowId: string, executionId: string) =>
  vi.waitFor(
    async () => {
      const record = await execution(ws, workflowId, executionId);
      if (record.nodes.at(-1)?.status !== "waiting") throw new Error("not asking yet");
      return record;
    },
    { timeout: 10_000, interval: 20 },
  );

/** The link's token from the URL mailed to `inbox`. */
async function mailedToken(inbox: string): Promise<string> {
  const mails = (await (await fetch(`${ECHO_URL}/received/${inbox}`)).json()) as {
    body: string;
  }[];
  const url = (JSON.parse(mails[0]?.body ?? "{}") as { url: string }).url;
  return url.split("#launch=")[1] ?? "";
}

describe("a workflow reaching the person through the chat", () => {
  it("writes before the opening, asks, and goes on with the person's answer", async () => {
    const ws = await seedWorkspace();
    const inbox = `mail-${crypto.randomUUID()}`;
    const flow = await createWorkflow(ws, {
      nodes: [
        ...linkAndMail(ws, inbox),
        { key: "tell", type: "send_message", linkId: "{{link.id}}", text: "Your payment failed." },
        {
          key: "ask",
          type: "ask_person",
          linkId: "{{link.id}}",
          question: "Update your card now?",
          options: [
            { label: "Yes", value: "yes" },
            { label: "Later", value: "later" },
          ],
          timeoutSeconds: 600,
        },
        {
          key: "thanks",
          type: "send_message",
          linkId: "{{link.id}}",
          text: "You chose {{ask.answer}}.",
        },
      ],
      connections: [
        { from: "webhook_1", to: "link" },
        { from: "link", to: "mail" },
        { from: "mail", to: "tell" },
        { from: "tell", to: "ask" },
        { from: "ask", to: "thanks", branch: "answered" },
      ],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    const waiting = await asking(ws, flow.id, executionId);
    expect(waiting.nodes.find((node) => node.key === "tell")?.output).toMatchObject({
      delivered: "stored",
    });
    const session = await open(await mailedToken(inbox));
    const texts = session.messages.map((message) => message.text);
    expect(texts).toEqual(["Hi Ann!", "Your payment failed.", "Update your card now?"]);
    const question = (session.messages[2] as { question?: { id: string } }).question;
    expect(question?.id).toMatch(/^qst_/);

    const client = await connect(session.socketUrl as string);
    client.send({ type: "answer", questionId: question?.id, value: "yes" });
    const stub = conversation(env, session.sessionId);
    const ended = await vi.waitFor(
      async () => {
        // The outbox tells the runner at once, else at its alarm.
        await runDurableObjectAlarm(stub);
        const record = await execution(ws, flow.id, executionId);
        if (record.status === "running") throw new Error("still waiting");
        return record;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(ended.status).toBe("succeeded");
    expect(ended.nodes.find((node) => node.key === "ask")?.output).toMatchObject({ answer: "yes" });
    expect(ended.nodes.at(-1)).toMatchObject({ key: "thanks", status: "succeeded" });
    expect(ended.nodes.at(-1)?.output).toMatchObject({ delivered: "live" });
    client.socket.close();
  });
  it("closes the question in the chat when it times out, and the answer after it is refused", async () => {
    const ws = await seedWorkspace();
    const inbox = `mail-${crypto.randomUUID()}`;
    const flow = await createWorkflow(ws, {
      nodes: [
        ...linkAndMail(ws, inbox),
        {
          key: "ask",
          type: "ask_person",
          linkId: "{{link.id}}",
          question: "Still there?",
          options: [{ label: "Yes", value: "yes" }],
          timeoutSeconds: 60,
        },
        { key: "late", type: "set", fields: { timedOut: "{{ask.timedOut}}" } },
      ],
      connections: [
        { from: "webhook_1", to: "link" },
        { from: "link", to: "mail" },
        { from: "mail", to: "ask" },
        { from: "ask", to: "late", branch: "timeout" },
      ],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    const startedAt = Date.now();
    await asking(ws, flow.id, executionId);
    const token = await mailedToken(inbox);
    const session = await open(token);
    const asked = session.messages.at(-1) as { question?: { id: string; closed?: boolean } };
    // The id the chat stored is the one the runner derives from execution and node.
    expect(asked.question?.id).toBe(await actionId("qst", { executionId, nodeKey: "ask" }));
    expect(asked.question?.closed).toBeUndefined();
    const client = await connect(session.socketUrl as string);
    const told = vi.spyOn(WorkflowRunner.prototype, "answerQuestion");
    const closedTold = vi.spyOn(WorkflowRunner.prototype, "closeQuestion");
    try {
      await alarmAt(flow.id, startedAt + 65_000);
      const ended = await vi.waitFor(
        async () => {
          const record = await execution(ws, flow.id, executionId);
          if (record.status === "running") throw new Error("still waiting");
          return record;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(ended.nodes.map((node) => `${node.key} ${node.status}`).slice(-2)).toEqual([
        "ask succeeded",
        "late succeeded",
      ]);
      expect(ended.nodes.find((node) => node.key === "ask")?.output).toEqual({ timedOut: true });
      // Live sockets get the question's message again, closed.
      const shown = (await client.next("message")).message as typeof asked & { id: string };
      expect(shown.id).toBe(session.messages.at(-1)?.id);
      expect(shown.question).toMatchObject({ id: asked.question?.id, closed: true });
      client.send({ type: "answer", questionId: asked.question?.id, value: "yes" });
      expect((await client.next("error")).error?.code).toBe("question_closed");
      // A reload shows it closed; nothing was stored as an answer, and the runner heard nothing.
      const reloaded = await open(token);
      const after = reloaded.messages as { question?: { closed?: boolean }; answerTo?: string }[];
      expect(after.at(-1)?.question).toMatchObject({ closed: true });
      expect(after.some((message) => message.answerTo)).toBe(false);
      await runDurableObjectAlarm(conversation(env, session.sessionId));
      expect(told).not.toHaveBeenCalled();
      expect(closedTold).not.toHaveBeenCalled();
    } finally {
      told.mockRestore();
      closedTold.mockRestore();
      client.socket.close();
    }
  });
});
