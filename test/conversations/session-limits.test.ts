/**
 * Caps on one link's conversation (docs/limits.md#chat): at most 30 session opens per minute
 * (then 429 rate_limited with Retry-After, in the envelope), and at most 8 live sockets (the 9th
 * upgrade gets 429 too_many_connections in the envelope).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectJson, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, open, openSession, upgrade } from "../helpers/chat";

afterEach(() => {
  vi.useRealTimers();
});

describe("session opens per link", () => {
  it("answers 30 opens in a minute, refuses the 31st with Retry-After, and opens again later", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    for (let i = 0; i < 30; i++) await open(link.token);

    vi.setSystemTime(start + 20_000);
    const refused = await openSession(link.token);
    const body = await expectJson<{ error: { code: string; details: unknown[] } }>(refused, 429);
    expect(body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBe(40);
    expect(body.error.details).toEqual([{ retryAfterSeconds: 40 }]);

    // Another link of the same workspace is not affected.
    await open((await createLaunch(ws)).token);

    vi.setSystemTime(start + 60_001);
    expect((await open(link.token)).status).toBe("in-progress");
  });
});

describe("live sockets per conversation", () => {
  it("accepts 8 sockets and refuses the 9th with 429 too_many_connections", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const sockets = [];
    for (let i = 0; i < 8; i++) {
      sockets.push(await connect((await open(link.token)).socketUrl as string));
    }
    const ninth = await upgrade((await open(link.token)).socketUrl as string);
    const body = await expectJson<{ error: { code: string; requestId: string } }>(ninth, 429);
    expect(body.error.code).toBe("too_many_connections");

    // A closed socket frees its place.
    sockets[0]?.socket.close();
    await vi.waitFor(async () => {
      const again = await upgrade((await open(link.token)).socketUrl as string);
      expect(again.status).toBe(101);
      again.webSocket?.accept();
      again.webSocket?.close();
    });
    for (const client of sockets.slice(1)) client.socket.close();
  });
});
