/** The Conversation's `messages` table and statements (docs/architecture.md#storage). */
import type { Block } from "../protocol";
import type { StoredMessage, StoredQuestion } from "./contract";

/** Columns the messages table gained after objects already existed, with their definitions. */
const ADDED_COLUMNS = [
  ["interrupted", "INTEGER NOT NULL DEFAULT 0"],
  ["blocks", "TEXT"],
  ["source", "TEXT"],
  ["question", "TEXT"],
  ["answer_to", "TEXT"],
] as const;

type MessageRow = Omit<
  StoredMessage,
  "interrupted" | "blocks" | "source" | "question" | "answerTo"
> & {
  interrupted: number;
  blocks?: string | null;
  source?: "workflow" | null;
  question?: string | null;
  answer_to?: string | null;
};

/**
 * Creates the table or adds the columns an older one lacks. `seq` is a plain rowid (messages are
 * never deleted), so an insert writes no `AUTOINCREMENT` counter (docs/performance.md#counts-per-call).
 */
export function createMessagesTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL,
    role TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)`);
  const columns = sql.exec<{ name: string }>("PRAGMA table_info(messages)").toArray();
  for (const [name, definition] of ADDED_COLUMNS) {
    if (!columns.some((column) => column.name === name)) {
      sql.exec(`ALTER TABLE messages ADD COLUMN ${name} ${definition}`);
    }
  }
}

/** Stores one whole message, an agent's with its Markdown blocks as JSON. */
export function insertMessage(sql: SqlStorage, message: StoredMessage): void {
  sql.exec(
    "INSERT INTO messages (id, role, text, at, interrupted, blocks, source, question, answer_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    message.id,
    message.role,
    message.text,
    message.at,
    message.interrupted ? 1 : 0,
    message.blocks ? JSON.stringify(message.blocks) : null,
    message.source ?? null,
    // Its open or closed state lives with the question (./questions.ts), not in the message.
    message.question
      ? JSON.stringify({
          id: message.question.id,
          options: message.question.options,
          allowText: message.question.allowText,
        })
      : null,
    message.answerTo ?? null,
  );
}

/** The newest `limit` messages (all for -1) oldest first, blocks parsed. */
export function readMessages(sql: SqlStorage, limit: number): StoredMessage[] {
  // SQLite takes LIMIT -1 as no limit.
  return sql
    .exec<MessageRow>(
      "SELECT id, role, text, at, interrupted, blocks, source, question, answer_to FROM (SELECT * FROM messages ORDER BY seq DESC LIMIT ?) ORDER BY seq",
      limit,
    )
    .toArray()
    .map(({ interrupted, blocks: json, source, question, answer_to, ...message }) => ({
      ...message,
      ...(interrupted ? { interrupted: true } : {}),
      ...(typeof json === "string" ? { blocks: JSON.parse(json) as Block[] } : {}),
      ...(source ? { source } : {}),
      ...(typeof question === "string" ? { question: JSON.parse(question) as StoredQuestion } : {}),
      ...(answer_to ? { answerTo: answer_to } : {}),
    }));
}

/** The newest message's time (epoch ms), or null when there is none. */
export function newestMessageAt(sql: SqlStorage): number | null {
  const row = sql
    .exec<{ at: number }>("SELECT at FROM messages ORDER BY seq DESC LIMIT 1")
    .toArray();
  return row[0]?.at ?? null;
}
