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
import { expectJson, seedWorkspace } from "../helpers/api";
import { connect, open } from "../helpers/chat";
import { createWorkflow, ECHO_URL, execution, hook } from "../helpers/workflows";

describe("a workflow reaching the person through the chat", () => {
  it("writes before the opening, asks, and goes on with the person's answer", async () => {
    const ws = await seedWorkspace();
    const inbox = `mail-${crypto.randomUUID()}`;
    const flow = await createWorkflow(ws, {
      nodes: [
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
    const waiting = await vi.waitFor(
      async () => {
        const record = await execution(ws, flow.id, executionId);
        if (record.nodes.at(-1)?.status !== "waiting") throw new Error("not asking yet");
        return record;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(waiting.nodes.find((node) => node.key === "tell")?.output).toMatchObject({
      delivered: "stored",
    });
    const mails = (await (await fetch(`${ECHO_URL}/received/${inbox}`)).json()) as {
      body: string;
    }[];
    const url = (JSON.parse(mails[0]?.body ?? "{}") as { url: string }).url;
    const token = url.split("#launch=")[1] ?? "";

    const session = await open(token);
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
});
