import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import { call, errorCode, expectJson, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, lookUp, open, openSession, upgrade } from "../helpers/chat";

describe("POST /v1/chat/sessions (docs/api/conversations.md)", () => {
  it("opens a pending link: active, greeting first, pending slot freed, socket address given", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, { participant: { name: "Ada", externalId: "u-1" } });
    const limiter = linkLedger(env, ws.workspaceId);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(1);

    const session = await open(link.token);
    expect(session.sessionId).toMatch(/^ses_/);
    expect(session.status).toBe("in-progress");
    expect(session.agent).toEqual({ name: "Onboarding", mode: "initiator" });
    expect(session.participant).toEqual({ name: "Ada" });
    expect(session.messages.map((m) => [m.role, m.text])).toEqual([["agent", "Hi Ada!"]]);
    expect(session.socketUrl).toMatch(
      new RegExp(`^wss://edge\\.test/v1/chat/sessions/${session.sessionId}/socket\\?ticket=`),
    );
    expect(session.socketUrl).not.toContain(link.token);
    expect(session.limits).toEqual({
      maxMessageChars: 2000,
      messagesPerMinute: 20,
      sessionOpensPerMinute: 30,
    });
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(0);

    const looked = await lookUp(ws, link.id);
    expect(looked.status).toBe("active");
    expect(looked.conversation).toMatchObject({
      sessionId: session.sessionId,
      status: "in-progress",
      endedAt: null,
    });
  });

  it("resumes the same conversation with its history when the token is used again", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, { participant: { name: "Ada" } });
    const first = await open(link.token);
    const client = await connect(first.socketUrl as string);
    client.send({ type: "message", text: "Where is my order?" });
    await client.next("message");
    const reply = await client.next("message");
    expect(reply.message?.role).toBe("agent");
    client.socket.close();

    const again = await open(link.token);
    expect(again.sessionId).toBe(first.sessionId);
    expect(again.messages.map((m) => m.role)).toEqual(["agent", "person", "agent"]);
    expect(again.messages[1]?.text).toBe("Where is my order?");
    expect(again.socketUrl).not.toBe(first.socketUrl);
  });

  it("starts a responder agent's conversation empty: the person writes first", async () => {
    const ws = await seedWorkspace();
    await expectJson(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { mode: "responder" },
      }),
      200,
    );
    const session = await open((await createLaunch(ws)).token);
    expect(session.agent.mode).toBe("responder");
    expect(session.messages).toEqual([]);
  });

  it("renders the greeting with the parameters and the global task", async () => {
    const ws = await seedWorkspace();
    await expectJson(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { greeting: "Hello {{participant.name}}, plan {{parameters.plan}}. {{globalTask}}" },
      }),
      200,
    );
    const link = await createLaunch(ws, {
      participant: { name: "Bo" },
      globalTask: "Confirm the address.",
    });
    const session = await open(link.token);
    expect(session.messages[0]?.text).toBe("Hello Bo, plan basic. Confirm the address.");
  });

  it("refuses unknown, revoked and expired tokens clearly, and bad bodies", async () => {
    const ws = await seedWorkspace();
    const unknown = await openSession("A".repeat(43));
    expect(unknown.status).toBe(404);
    expect(await errorCode(unknown)).toBe("not_found");

    const revoked = await createLaunch(ws);
    expect(
      (await call("DELETE", `/v1/widget/launches/${revoked.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    const refused = await expectJson<{ error: { code: string; details: unknown[] } }>(
      await openSession(revoked.token),
      403,
    );
    expect(refused.error).toMatchObject({
      code: "link_unavailable",
      details: [{ reason: "revoked" }],
    });

    const expired = await createLaunch(ws);
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, expired.id)
      .run();
    const late = await expectJson<{ error: { details: unknown[] } }>(
      await openSession(expired.token),
      403,
    );
    expect(late.error.details).toEqual([{ reason: "expired" }]);

    const noToken = await call("POST", "/v1/chat/sessions", { body: { token: 5 } });
    expect(noToken.status).toBe(400);
    const notJson = await call("POST", "/v1/chat/sessions", {
      body: "token=x",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(400);
    const huge = await call("POST", "/v1/chat/sessions", { body: { token: "x".repeat(5000) } });
    expect(huge.status).toBe(413);
  });

  it("answers CORS preflights from any page (the widget runs on customers' sites)", async () => {
    const preflight = await call("OPTIONS", "/v1/chat/sessions", {
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const ws = await seedWorkspace();
    const response = await openSession((await createLaunch(ws)).token, {
      origin: "https://shop.example",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("the conversation's WebSocket", () => {
  it("echoes the person's message to every open tab and answers it", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, { participant: { name: "Ada" } });
    const tab1 = await connect((await open(link.token)).socketUrl as string);
    const tab2 = await connect((await open(link.token)).socketUrl as string);
    tab1.send({ type: "message", text: "Is the trial free?" });
    for (const tab of [tab1, tab2]) {
      expect((await tab.next("message")).message).toMatchObject({
        role: "person",
        text: "Is the trial free?",
      });
      const reply = (await tab.next("message")).message;
      expect(reply?.role).toBe("agent");
      expect(reply?.text).toContain("Is the trial free?");
    }
  });

  it("takes a ticket once and only with an upgrade", async () => {
    const ws = await seedWorkspace();
    const session = await open((await createLaunch(ws)).token);
    const socketUrl = session.socketUrl as string;
    const plain = await call("GET", new URL(socketUrl.replace(/^wss/, "https")).pathname);
    expect(plain.status).toBe(426);
    await connect(socketUrl);
    expect((await upgrade(socketUrl)).status).toBe(403);
    const wrongSession = socketUrl.replace(/ses_[0-9A-Za-z]{22}/, "ses_x");
    expect((await upgrade(wrongSession)).status).toBe(404);
  });

  it("refuses bad frames, long messages and floods with an error frame, storing nothing", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    client.send("not json");
    expect((await client.next("error")).error?.code).toBe("invalid_message");
    client.send({ type: "message", text: "x".repeat(2001) });
    expect((await client.next("error")).error?.code).toBe("message_too_long");
    client.send({ type: "message", text: "   " });
    expect((await client.next("error")).error?.code).toBe("invalid_message");

    // Another conversation is not affected by this one's flood.
    const other = await connect((await open((await createLaunch(ws)).token)).socketUrl as string);
    for (let i = 0; i < 20; i++) {
      client.send({ type: "message", text: `m${i}` });
      await client.next("message");
      await client.next("message");
    }
    client.send({ type: "message", text: "one too many" });
    const flood = await client.next("error");
    expect(flood.error?.code).toBe("rate_limited");
    const retry = flood.error?.details[0]?.retryAfterSeconds as number;
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    other.send({ type: "message", text: "still fine" });
    expect((await other.next("message")).message?.text).toBe("still fine");

    const history = (await open(link.token)).messages;
    expect(history.filter((m) => m.role === "person")).toHaveLength(20);
    expect(history.some((m) => m.text === "one too many" || m.text.length > 2000)).toBe(false);
  });
});
