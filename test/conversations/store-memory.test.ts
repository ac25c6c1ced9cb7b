import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HISTORY_READ_LIMIT } from "../../src/conversations/brains/prompt";
import { conversation } from "../../src/conversations/conversation/client";
import type { StoredMessage } from "../../src/conversations/conversation/contract";
import { RECENT_MAX_CHARS, RecentMessages } from "../../src/conversations/conversation/recent";
import { ConversationStore } from "../../src/conversations/conversation/store";
import { IDLE_TIMEOUT_MS } from "../../src/conversations/protocol";
import { seedWorkspace } from "../helpers/api";
import { connect, createLaunch, lookUp, open } from "../helpers/chat";

afterEach(() => {
  vi.useRealTimers();
});

const message = (n: number, text = `message ${n}`): StoredMessage => ({
  id: `msg_${n}`,
  role: n % 2 === 0 ? "person" : "agent",
  text,
  at: 1_000_000 + n * 1_000,
});

/** Runs `body` with two stores on one fresh conversation's SQLite: one warm, one that reads all. */
async function withStores(body: (warm: ConversationStore, sql: SqlStorage) => void): Promise<void> {
  const stub = env.CONVERSATION.get(env.CONVERSATION.newUniqueId());
  await runInDurableObject(stub, (_instance, state) => {
    body(new ConversationStore(state.storage.sql), state.storage.sql);
  });
}

describe("a conversation's newest messages in memory (docs/performance.md#counts-per-call)", () => {
  it("answers as storage does, past the count and the characters it holds", async () => {
    await withStores((warm, sql) => {
      warm.messages(HISTORY_READ_LIMIT); // loaded while empty: the whole history
      const long = "x".repeat(1_500);
      const count = HISTORY_READ_LIMIT + 150;
      for (let n = 0; n < count; n++) {
        // Long messages past the middle, so the character bound is the one that binds there.
        warm.addMessage(message(n, n > count / 2 ? `${n} ${long}` : undefined));
      }
      const cold = () => new ConversationStore(sql);
      for (const limit of [1, 2, 50, HISTORY_READ_LIMIT, HISTORY_READ_LIMIT + 1, -1]) {
        expect(warm.messages(limit), `limit ${limit}`).toEqual(cold().messages(limit));
        expect(warm.messages(limit, true), `limit ${limit}`).toEqual(cold().messages(limit, true));
      }
      for (const since of [0, message(100).at, message(count - 10).at, message(count).at]) {
        expect(warm.personMessageTimes(since)).toEqual(cold().personMessageTimes(since));
      }
    });
  });

  it("holds at most what a reply reads, and at most RECENT_MAX_CHARS of text", () => {
    const byCount = new RecentMessages([], 3, true);
    for (let n = 0; n < 5; n++) byCount.add(message(n));
    expect(byCount.newest(3)?.map((m) => m.id)).toEqual(["msg_2", "msg_3", "msg_4"]);
    // What it no longer holds, storage answers.
    expect(byCount.newest(4)).toBeNull();
    expect(byCount.newest(-1)).toBeNull();
    expect(byCount.personTimesSince(message(3).at)).toEqual([message(4).at]);
    expect(byCount.personTimesSince(0)).toBeNull();

    const bySize = new RecentMessages([], 1_000, true);
    const half = "y".repeat(RECENT_MAX_CHARS / 2);
    for (let n = 0; n < 3; n++) bySize.add(message(n, half));
    expect(bySize.newest(2)?.map((m) => m.id)).toEqual(["msg_1", "msg_2"]);
    expect(bySize.newest(3)).toBeNull();

    // The newest message stays, however long.
    const huge = new RecentMessages([message(0)], 10, true);
    huge.add(message(1, "z".repeat(RECENT_MAX_CHARS + 1)));
    expect(huge.newest(1)?.map((m) => m.id)).toEqual(["msg_1"]);
    expect(huge.newest(2)).toBeNull();

    const whole = new RecentMessages([message(0), message(1)], 3, true);
    expect(whole.newest(10)?.map((m) => m.id)).toEqual(["msg_0", "msg_1"]);
    expect(whole.personTimesSince(0)).toEqual([message(0).at]);
  });

  it("a message after a restart sees what was stored before it (rate limit and history)", async () => {
    await withStores((first, sql) => {
      first.addMessage(message(0));
      first.setState({ endedAt: null, endReason: null, lastActivityAt: 5 });
      const restarted = new ConversationStore(sql);
      expect(restarted.personMessageTimes(0)).toEqual([message(0).at]);
      expect(restarted.state()).toEqual({ endedAt: null, endReason: null, lastActivityAt: 5 });
      restarted.addMessage(message(1));
      expect(restarted.messages(10).map((m) => m.id)).toEqual(["msg_0", "msg_1"]);
    });
  });
});

describe("a conversation stored by an earlier version", () => {
  it("keeps its AUTOINCREMENT table and the activity time its state held", async () => {
    const stub = env.CONVERSATION.get(env.CONVERSATION.newUniqueId());
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      sql.exec(`DROP TABLE messages; CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)`);
      const store = new ConversationStore(sql);
      // Earlier versions moved the state's time with each message; it may be the newest.
      store.setState({ endedAt: null, endReason: null, lastActivityAt: message(5).at });
      expect(store.lastActivityAt()).toBe(message(5).at);
      store.addMessage(message(2));
      expect(new ConversationStore(sql).lastActivityAt()).toBe(message(5).at);
      store.addMessage(message(9));
      expect(new ConversationStore(sql).lastActivityAt()).toBe(message(9).at);
      expect(new ConversationStore(sql).messages().map((m) => m.id)).toEqual(["msg_2", "msg_9"]);
    });
  });

  it("a new conversation's idle time is its opening's until its first message", async () => {
    await withStores((store, sql) => {
      expect(store.lastActivityAt()).toBeNull();
      store.setState({ endedAt: null, endReason: null, lastActivityAt: 7 });
      expect(store.lastActivityAt()).toBe(7);
      store.addMessage(message(1));
      expect(new ConversationStore(sql).lastActivityAt()).toBe(message(1).at);
      expect(
        sql.exec("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").toArray(),
      ).toEqual([]);
    });
  });
});

describe("the idle alarm (docs/api/conversations.md#lifecycle)", () => {
  it("a message does not move the alarm; it wakes early, ends nothing and is set for the new idle time", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const session = await open(link.token);
    const stub = conversation(env, session.sessionId);
    const alarm = () => runInDurableObject(stub, (_o, state) => state.storage.getAlarm());
    const first = await alarm();
    const openedAt = Date.now();
    const client = await connect(session.socketUrl as string);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(openedAt + 10 * 60_000);
    client.send({ type: "message", text: "hello" });
    await client.next("message");
    const reply = await client.next("message");
    expect(reply.message?.role).toBe("agent");
    const repliedAt = Date.parse(String(reply.message?.at));
    expect(await alarm()).toBe(first);

    vi.setSystemTime(openedAt + IDLE_TIMEOUT_MS + 1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await lookUp(ws, link.id)).status).toBe("active");
    expect(await alarm()).toBe(repliedAt + IDLE_TIMEOUT_MS);

    vi.setSystemTime(repliedAt + IDLE_TIMEOUT_MS + 1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await client.next("ended")).type).toBe("ended");
  });
});
