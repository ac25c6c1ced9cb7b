/**
 * A workflow writing into a conversation (docs/chat.md#questions, design of send_message): live or
 * stored, proactive before the first open, once per id, refused once the link is over, seen by the
 * brain, gone with an erasure.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { call, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, type Frame, open } from "../helpers/chat";
import {
  firstOpenFacts,
  installRecordingBrain,
  until,
  workflowMessage,
  YES_NO,
} from "../helpers/workflow-chat";

afterEach(() => {
  vi.useRealTimers();
});

const far = () => ({ linkId: "lnk_x", workspaceId: "wsp_x", expiresAt: Date.now() + 3_600_000 });

/** A link of a fresh workspace, opened, with its conversation's stub. */
async function openedLink() {
  const ws = await seedWorkspace();
  const link = await createLaunch(ws);
  const session = await open(link.token);
  const stub = conversation(env, session.sessionId);
  const target = {
    linkId: link.id,
    workspaceId: ws.workspaceId,
    expiresAt: Date.now() + 3_600_000,
  };
  return { ws, link, session, stub, target };
}

describe("postWorkflowMessage (docs/chat.md#questions)", () => {
  it("goes to live sockets at once (`live`), with source workflow and Markdown", async () => {
    const { session, stub, target } = await openedLink();
    const client = await connect(session.socketUrl as string);
    await client.next("typing");
    const message = workflowMessage("Your order **shipped**.");
    expect(await stub.postWorkflowMessage(message, target)).toEqual({
      ok: true,
      messageId: message.id,
      delivered: "live",
    });
    const frame = (await client.next("message")).message as Frame["message"] & {
      source?: string;
      blocks?: unknown[];
    };
    expect(frame).toMatchObject({ id: message.id, role: "agent", source: "workflow" });
    expect(frame?.text).toBe("Your order **shipped**.");
    expect(JSON.stringify(frame?.blocks)).toContain('"strong":true');
  });

  it("with no socket open it is `stored`, and the next open shows it", async () => {
    const { link, stub, target } = await openedLink();
    const message = workflowMessage("We refunded your invoice.");
    const posted = await stub.postWorkflowMessage(message, target);
    expect(posted).toMatchObject({ ok: true, delivered: "stored" });
    const again = await open(link.token);
    expect(again.messages.at(-1)).toMatchObject({
      id: message.id,
      role: "agent",
      text: "We refunded your invoice.",
      source: "workflow",
    });
  });

  it("before the first open it is kept and shown after the greeting (proactive)", async () => {
    const ws = await seedWorkspace();
    const sessionId = `ses_pre_${Date.now()}`;
    const stub = conversation(env, sessionId);
    const first = workflowMessage("Your payment failed.");
    const second = workflowMessage("Update your card now?", { options: YES_NO });
    expect(await stub.postWorkflowMessage(first, far())).toMatchObject({ delivered: "stored" });
    expect(await stub.postWorkflowMessage(second, far())).toMatchObject({ delivered: "stored" });
    // Nothing is a conversation yet: no transcript.
    expect(await stub.transcript()).toEqual([]);

    const opened = await stub.open(firstOpenFacts(ws, sessionId, Date.now()));
    if (!opened.opened) throw new Error("not opened");
    const shown = opened.view.messages.map(({ text, source, question }) => ({
      text,
      source,
      question,
    }));
    expect(shown).toEqual([
      { text: "Hi Ada!", source: undefined, question: undefined },
      { text: "Your payment failed.", source: "workflow", question: undefined },
      {
        text: "Update your card now?",
        source: "workflow",
        // Never the asker on the wire.
        question: { id: second.question?.id, options: YES_NO, allowText: false },
      },
    ]);
    // Opened again: the same history, nothing moved twice.
    const reopened = await stub.open(firstOpenFacts(ws, sessionId, Date.now()));
    expect(reopened.opened && reopened.view.messages).toHaveLength(3);
  });

  it("a repeated id stores nothing twice and returns the first outcome", async () => {
    const { session, stub, target } = await openedLink();
    const message = workflowMessage("Once only.");
    const first = await stub.postWorkflowMessage(message, target);
    expect(first).toMatchObject({ delivered: "stored" });
    // A socket is open now, yet the retry is the first call's outcome and sends nothing.
    const client = await connect(session.socketUrl as string);
    await client.next("typing");
    expect(await stub.postWorkflowMessage(message, target)).toEqual(first);
    const texts = (await stub.transcript()).map((m) => m.text);
    expect(texts.filter((text) => text === "Once only.")).toHaveLength(1);
  });

  it("refuses an ended, a revoked and an expired conversation with the reason", async () => {
    const ended = await openedLink();
    await ended.stub.end("person");
    expect(await ended.stub.postWorkflowMessage(workflowMessage("late"), ended.target)).toEqual({
      ok: false,
      reason: "ended",
    });

    const revoked = await openedLink();
    const status = await call("DELETE", `/v1/widget/launches/${revoked.link.id}`, {
      token: revoked.ws.widgetKey,
    });
    expect(status.status).toBe(204);
    expect(await revoked.stub.postWorkflowMessage(workflowMessage("late"), revoked.target)).toEqual(
      { ok: false, reason: "revoked" },
    );

    // Past the link's expiry: refused, and the conversation ends as expired.
    const expired = await openedLink();
    const client = await connect(expired.session.socketUrl as string);
    const later = Date.now() + 8 * 86_400_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(later);
    expect(
      await expired.stub.postWorkflowMessage(workflowMessage("late"), expired.target, later),
    ).toEqual({ ok: false, reason: "expired" });
    expect((await client.next("expired")).type).toBe("expired");
    expect(
      await expired.stub.postWorkflowMessage(workflowMessage("later"), expired.target, later),
    ).toEqual({ ok: false, reason: "expired" });
  });

  it("before the first open: refused past the link's expiry, and once revoked", async () => {
    const stub = conversation(env, `ses_never_${Date.now()}`);
    const now = Date.now();
    const link = { linkId: "lnk_x", workspaceId: "wsp_x", expiresAt: now + 1_000 };
    expect(await stub.postWorkflowMessage(workflowMessage("too late"), link, now + 1_000)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await stub.postWorkflowMessage(workflowMessage("in time"), link, now)).toMatchObject({
      ok: true,
    });
    await stub.revoke(now);
    expect(await stub.postWorkflowMessage(workflowMessage("after"), link, now)).toEqual({
      ok: false,
      reason: "revoked",
    });
    // Revoked before any workflow wrote to it (a race with the node's look-up): refused too.
    const fresh = conversation(env, `ses_revoked_first_${now}`);
    await fresh.revoke(now);
    expect(await fresh.postWorkflowMessage(workflowMessage("after"), link, now)).toEqual({
      ok: false,
      reason: "revoked",
    });
  });

  it("rejects a message no node could send: empty or over 2,000 characters, 11 options, none and no text", async () => {
    const stub = conversation(env, `ses_bad_${Date.now()}`);
    const options = Array.from({ length: 11 }, (_, n) => ({ label: `${n}`, value: `${n}` }));
    for (const message of [
      workflowMessage("   "),
      workflowMessage("x".repeat(2_001)),
      workflowMessage("Pick one", { options }),
      workflowMessage("Pick one", { options: [] }),
      workflowMessage("Pick one", { options: [YES_NO[0], YES_NO[0]] as typeof YES_NO }),
    ]) {
      expect(await stub.postWorkflowMessage(message, far())).toMatchObject({
        ok: false,
        reason: "invalid",
        message: expect.stringMatching(/needs an id/),
      });
    }
    expect(await stub.postWorkflowMessage(workflowMessage("x".repeat(2_000)), far())).toMatchObject(
      { ok: true },
    );
  });

  it("the brain sees workflow messages as context in the history it is given", async () => {
    const { session, stub, target } = await openedLink();
    const histories = await installRecordingBrain(stub);
    await stub.postWorkflowMessage(workflowMessage("Your order #42 shipped today."), target);
    const client = await connect(session.socketUrl as string);
    client.send({ type: "message", text: "When will it arrive?" });
    await until(() => histories.length > 0);
    expect(histories[0]?.slice(-2)).toEqual([
      { role: "agent", text: "Your order #42 shipped today." },
      { role: "person", text: "When will it arrive?" },
    ]);
  });

  it("erasure removes workflow messages, kept ones and questions; later posts are refused", async () => {
    const ws = await seedWorkspace();
    const sessionId = `ses_erase_${Date.now()}`;
    const stub = conversation(env, sessionId);
    await stub.postWorkflowMessage(workflowMessage("Early, unseen."), far());
    await stub.open(firstOpenFacts(ws, sessionId, Date.now()));
    const asked = workflowMessage("Confirm?", { options: YES_NO });
    await stub.postWorkflowMessage(asked, far());
    await stub.postWorkflowMessage(workflowMessage("Kept."), far());
    // Greeting, the early message, the question and the last one.
    expect(await stub.erase()).toBe(4);
    expect(await stub.transcript()).toEqual([]);
    expect(await stub.postWorkflowMessage(workflowMessage("After."), far())).toEqual({
      ok: false,
      reason: "revoked",
    });
    // Nothing left to close or deliver: no alarm.
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    // A link never opened: its kept messages go too.
    const unopened = conversation(env, `ses_erase_early_${Date.now()}`);
    await unopened.postWorkflowMessage(workflowMessage("Never seen."), far());
    expect(await unopened.erase()).toBe(1);
  });
});
