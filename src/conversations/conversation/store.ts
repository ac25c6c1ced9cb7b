/** The Conversation object's SQLite storage (docs/architecture.md#conversation). */
import { randomBase64Url } from "../../platform/crypto";
import { HISTORY_READ_LIMIT } from "../brains/prompt";
import { markdownBlocks } from "../markdown";
import type { ConversationFacts, ConversationRating, EndReason, StoredMessage } from "./contract";
import { createMessagesTable, insertMessage, newestMessageAt, readMessages } from "./message-rows";
import type { AskerItem, PendingLink } from "./questions";
import { RecentMessages } from "./recent";

/** A new message's id (`msg_` and 16 random characters). */
export function messageId(): string {
  return `msg_${randomBase64Url(12)}`;
}

/** The conversation's changing state. */
export type ConversationState = {
  endedAt: number | null;
  endReason: EndReason | null;
  /** Epoch ms it opened (older objects moved it per message); see `lastActivityAt`. */
  lastActivityAt: number;
};

/** A notification waiting for delivery; `due` is when the next attempt may run (epoch ms). */
export type OutboxItem =
  | {
      kind: "event";
      id: string;
      event: "conversation.started" | "conversation.ended" | "conversation.rated";
      at: number;
      reason?: EndReason;
      /** `conversation.rated` only: recorded on the link by the ledger, then told to workflows. */
      rating?: ConversationRating;
    }
  | {
      kind: "link-ended";
      id: string;
      at: number;
      /** Absent on items stored before reasons were recorded; they were ended by the person. */
      reason?: EndReason;
    }
  | AskerItem;

/** The link's end reason for an item queued before items carried one (revocations queue none). */
export function linkEndReason(reason: EndReason | null | undefined): EndReason {
  // A state stored as `revoked` (before revocations were `server`) queued no link-ended item.
  return reason == null || (reason as string) === "revoked" ? "person" : reason;
}

/**
 * A stored reason in today's words: revocations were once stored as `revoked`, a second word for
 * what events call `server` (docs/events.md#event-types); items queued then still read as `server`.
 */
function currentReason(item: OutboxItem): OutboxItem {
  if (!("reason" in item) || (item.reason as string) !== "revoked") return item;
  return { ...item, reason: "server" };
}

/**
 * The small values kept in `meta` by name: the link a workflow wrote to before the first open
 * (docs/chat.md#questions), when the link was revoked (epoch ms; erased counts as revoked), and
 * the person's rating (docs/api/conversations.md#rating).
 */
export type Kept = { pending: PendingLink; revokedAt: number; rating: ConversationRating };

/**
 * The conversation's tables (meta, messages, tickets, opens, retries, outbox), synchronous. What
 * every message reads is kept in memory, safe as the only writer (a failed write restarts the
 * object). Returned values are shared with that memory: callers copy, never change them.
 */
export class ConversationStore {
  /** `meta` values, parsed; null for a name with no row. */
  private readonly meta = new Map<string, unknown>();
  /** The newest messages (up to what a reply reads), once any read needed them. */
  private recent: RecentMessages | null = null;
  /** The outbox's earliest due time; undefined until read, and after each change. */
  private nextDue: number | null | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS tickets (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS opens (at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS retries (at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, item TEXT NOT NULL,
        due INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);`);
    createMessagesTable(sql);
  }

  facts(): ConversationFacts | null {
    return this.read<ConversationFacts>("facts");
  }

  state(): ConversationState | null {
    return this.read<ConversationState>("state");
  }

  /** When the idle timer starts (epoch ms): the later of the opening and the newest message. */
  lastActivityAt(): number | null {
    const opened = this.state()?.lastActivityAt;
    if (opened === undefined) return null;
    const held = this.recent?.newest(1);
    const newest = held ? (held[0]?.at ?? null) : newestMessageAt(this.sql);
    return newest === null ? opened : Math.max(opened, newest);
  }

  /** A small value kept beside the conversation (see `Kept`), or null before it is set. */
  kept<K extends keyof Kept>(name: K): Kept[K] | null {
    return this.read<Kept[K]>(name);
  }

  keep<K extends keyof Kept>(name: K, value: Kept[K]): void {
    this.write(name, value);
  }

  setFacts(facts: ConversationFacts): void {
    this.write("facts", facts);
  }

  setState(state: ConversationState): void {
    this.write("state", state);
  }

  /**
   * Stores a whole message (a streamed reply once, when over); an agent's with its Markdown blocks,
   * parsed once here rather than on every read.
   * @returns the message as stored, blocks included
   */
  addMessage(message: StoredMessage): StoredMessage {
    const stored =
      message.role === "agent" ? { ...message, blocks: markdownBlocks(message.text) } : message;
    insertMessage(this.sql, stored);
    this.recent?.add(stored);
    return stored;
  }

  /** The history oldest first, all or the newest `limit`; `blocks` keeps agents' Markdown blocks. */
  messages(limit = -1, blocks = false): StoredMessage[] {
    let list: StoredMessage[];
    if (limit < 0 && !this.recent) {
      // The whole history (a session's opening) also fills the tail.
      list = readMessages(this.sql, -1);
      this.remember(list);
    } else {
      list = this.tail().newest(limit) ?? readMessages(this.sql, limit);
    }
    return blocks ? list : list.map(({ blocks: _, ...message }) => message);
  }

  /** Times (epoch ms, oldest first) of the person's messages after `since`. */
  personMessageTimes(since: number): number[] {
    const cached = this.tail().personTimesSince(since);
    if (cached) return cached;
    return this.sql
      .exec<{ at: number }>(
        "SELECT at FROM messages WHERE role = 'person' AND at > ? ORDER BY seq",
        since,
      )
      .toArray()
      .map((row) => row.at);
  }

  /** Times (epoch ms, oldest first) the session was opened after `since`; older ones are dropped. */
  openTimes(since: number): number[] {
    return this.timesAfter("opens", since);
  }

  addOpen(at: number): void {
    this.sql.exec("INSERT INTO opens (at) VALUES (?)", at);
  }

  /** Times (epoch ms, oldest first) of `retry` frames acted on after `since`; older ones are dropped. */
  retryTimes(since: number): number[] {
    return this.timesAfter("retries", since);
  }

  addRetry(at: number): void {
    this.sql.exec("INSERT INTO retries (at) VALUES (?)", at);
  }

  /** The times of a table of times (`opens`, `retries`) after `since`, oldest first; older dropped. */
  private timesAfter(table: "opens" | "retries", since: number): number[] {
    this.sql.exec(`DELETE FROM ${table} WHERE at <= ?`, since);
    return this.sql
      .exec<{ at: number }>(`SELECT at FROM ${table} ORDER BY at`)
      .toArray()
      .map((row) => row.at);
  }

  addTicket(hash: string, expiresAt: number): void {
    this.sql.exec("DELETE FROM tickets WHERE expires_at <= ?", Date.now());
    this.sql.exec("INSERT INTO tickets (hash, expires_at) VALUES (?, ?)", hash, expiresAt);
  }

  /** Uses up a ticket: true when it existed and had not expired. */
  takeTicket(hash: string, now: number): boolean {
    const rows = this.sql
      .exec<{ expires_at: number }>("DELETE FROM tickets WHERE hash = ? RETURNING expires_at", hash)
      .toArray();
    return rows.length === 1 && (rows[0]?.expires_at ?? 0) > now;
  }

  enqueue(item: OutboxItem, due: number): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO outbox (id, item, due) VALUES (?, ?, ?)",
      item.id,
      JSON.stringify(item),
      due,
    );
    this.nextDue = undefined;
  }

  /** Items whose next attempt is due at `now`. */
  dueOutbox(now: number): { item: OutboxItem; attempts: number }[] {
    return this.sql
      .exec<{ item: string; attempts: number }>(
        "SELECT item, attempts FROM outbox WHERE due <= ? ORDER BY due",
        now,
      )
      .toArray()
      .map((row) => ({
        item: currentReason(JSON.parse(row.item) as OutboxItem),
        attempts: row.attempts,
      }));
  }

  delivered(id: string): void {
    this.sql.exec("DELETE FROM outbox WHERE id = ?", id);
    this.nextDue = undefined;
  }

  retryLater(id: string, due: number): void {
    this.sql.exec("UPDATE outbox SET due = ?, attempts = attempts + 1 WHERE id = ?", due, id);
    this.nextDue = undefined;
  }

  /** Earliest due time in the outbox, or null when it is empty. */
  nextOutboxDue(): number | null {
    if (this.nextDue === undefined) {
      const row = this.sql.exec<{ due: number | null }>("SELECT MIN(due) AS due FROM outbox").one();
      this.nextDue = row.due ?? null;
    }
    return this.nextDue;
  }

  /**
   * Deletes every table and what memory holds (docs/security.md#erasure).
   * @returns how many messages there were
   */
  erase(): number {
    const messages = this.sql.exec("DELETE FROM messages").rowsWritten;
    for (const table of ["meta", "tickets", "opens", "retries", "outbox"]) {
      this.sql.exec(`DELETE FROM ${table}`);
    }
    this.meta.clear();
    this.recent = null;
    this.nextDue = undefined;
    return messages;
  }

  /** The newest messages, read from storage on first use after the object starts. */
  private tail(): RecentMessages {
    // One more than the tail holds tells whether it holds the whole history.
    return this.recent ?? this.remember(readMessages(this.sql, HISTORY_READ_LIMIT + 1));
  }

  /** Keeps the newest of `newest` (the history's newest messages, oldest first) as the tail. */
  private remember(newest: StoredMessage[]): RecentMessages {
    const complete = newest.length <= HISTORY_READ_LIMIT;
    this.recent = new RecentMessages(
      newest.slice(-HISTORY_READ_LIMIT),
      HISTORY_READ_LIMIT,
      complete,
    );
    return this.recent;
  }

  private read<T>(name: string): T | null {
    if (!this.meta.has(name)) {
      const rows = this.sql
        .exec<{ value: string }>("SELECT value FROM meta WHERE name = ?", name)
        .toArray();
      this.meta.set(name, rows[0] ? JSON.parse(rows[0].value) : null);
    }
    return this.meta.get(name) as T | null;
  }

  private write(name: string, value: unknown): void {
    this.sql.exec(
      "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      name,
      JSON.stringify(value),
    );
    this.meta.set(name, value);
  }
}
