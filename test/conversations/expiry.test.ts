import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { seedWorkspace } from "../helpers/api";
import { connect, createLaunch, lookUp, open, openSession } from "../helpers/chat";

/** A link that expires in 5 minutes (the shortest allowed), opened, with a socket. */
async function openShortLink() {
  const ws = await seedWorkspace();
  const link = await createLaunch(ws, { expiresInSeconds: 300 });
  const createdAt = Date.now();
  const session = await open(link.token);
  const client = await connect(session.socketUrl as string);
  expect(await client.next("typing")).toEqual({ type: "typing", active: false });
  return { ws, link, session, client, expiresAt: createdAt + 300_000 };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a link that expires while its chat is open (docs/api/conversations.md#lifecycle)", () => {
  it("the alarm at the expiry sends `expired`, closes with 4411 and ends the conversation", async () => {
    const { ws, link, session, client, expiresAt } = await openShortLink();
    const stub = conversation(env, session.sessionId);
    vi.useFakeTimers({ toFake: ["Date"] });
    // A minute before the expiry, the alarm (the outbox's, if any) changes nothing for the chat.
    vi.setSystemTime(expiresAt - 60_000);
    await runDurableObjectAlarm(stub);
    client.send({ type: "message", text: "still here?" });
    expect((await client.next("message")).message?.text).toBe("still here?");

    vi.setSystemTime(expiresAt + 1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await client.next("expired")).type).toBe("expired");
    expect((await client.closed).code).toBe(4411);
    vi.useRealTimers();

    for (let i = 0; i < 50 && (await lookUp(ws, link.id)).status !== "ended"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const looked = await lookUp(ws, link.id);
    expect(looked.status).toBe("ended");
    expect(looked.conversation?.status).toBe("ended");
  });

  it("a message sent past the expiry, before the alarm ran, gets `expired` too", async () => {
    const { client, expiresAt } = await openShortLink();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(expiresAt + 1);
    client.send({ type: "message", text: "too late" });
    expect((await client.next("expired")).type).toBe("expired");
    expect((await client.closed).code).toBe(4411);
  });

  it("after the expiry the link no longer opens: 403 link_unavailable, reason expired", async () => {
    const { link, expiresAt } = await openShortLink();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(expiresAt + 1);
    const again = await openSession(link.token);
    expect(again.status).toBe(403);
    const body = (await again.json()) as { error: { code: string; details: unknown[] } };
    expect(body.error.code).toBe("link_unavailable");
    expect(body.error.details).toEqual([{ reason: "expired" }]);
  });
});
