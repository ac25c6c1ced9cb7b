/**
 * What workflows write into a conversation (docs/chat.md#questions, docs/chat.md#messages-from-workflows):
 * the outcome of each posted message (a retried call stores nothing twice), messages kept until the
 * first open, and ask_person's questions with their askers, who are never shown to the page.
 */
import type { AppBindings } from "../../platform/env";
import { workflowRunner } from "../../workflows/runner/client";
import type {
  WorkflowRunnerContract,
  WorkflowRunnerQuestions,
} from "../../workflows/runner/contract";
import type { StoredMessage, StoredQuestion, WorkflowMessage } from "./contract";

/** Where a question's answer and closing go: the runner shard of the waiting execution. */
export type QuestionAsker = NonNullable<WorkflowMessage["question"]>["asker"];

/** Outbox items that tell an asker (delivered at least once, like the conversation's events). */
export type AskerItem =
  | {
      kind: "answer";
      id: string;
      at: number;
      questionId: string;
      answer: string;
      asker: QuestionAsker;
    }
  | { kind: "close-question"; id: string; at: number; questionId: string; asker: QuestionAsker };

/** A stored question: open until answered, or closed when its conversation or link ended. */
export type QuestionRow = StoredQuestion & {
  asker: QuestionAsker;
  state: "open" | "answered" | "closed";
  /** The agent message that asks it, without its state. */
  message: StoredMessage;
};

/** The link a workflow wrote to before anyone opened it. */
export type PendingLink = { linkId: string; workspaceId: string; expiresAt: number };

/** The tables of workflow messages and questions, synchronous (docs/architecture.md#conversation). */
export class QuestionStore {
  /** Question states by id, once read (few per conversation). */
  private states: Map<string, QuestionRow["state"]> | null = null;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS questions (id TEXT PRIMARY KEY, message TEXT NOT NULL,
        asker TEXT NOT NULL, state TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS posted (id TEXT PRIMARY KEY, delivered TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS early (seq INTEGER PRIMARY KEY, message TEXT NOT NULL);`);
  }

  /** How a workflow message of `id` was delivered the first time, or null for a new one. */
  posted(id: string): "live" | "stored" | null {
    const row = this.sql
      .exec<{ delivered: "live" | "stored" }>("SELECT delivered FROM posted WHERE id = ?", id)
      .toArray()[0];
    return row?.delivered ?? null;
  }

  recordPost(id: string, delivered: "live" | "stored"): void {
    this.sql.exec("INSERT OR IGNORE INTO posted (id, delivered) VALUES (?, ?)", id, delivered);
  }

  /** Keeps a message written before the first open; shown after the greeting then. */
  keepEarly(message: StoredMessage): void {
    this.sql.exec("INSERT INTO early (message) VALUES (?)", JSON.stringify(message));
  }

  /** The messages kept before the first open, oldest first, now handed over (and deleted). */
  takeEarly(): StoredMessage[] {
    const rows = this.sql
      .exec<{ message: string }>("DELETE FROM early RETURNING seq, message")
      .toArray() as unknown as { seq: number; message: string }[];
    return rows
      .sort((a, b) => a.seq - b.seq)
      .map((row) => JSON.parse(row.message) as StoredMessage);
  }

  /** Keeps the question of `message` (which carries one), open, with where its answer goes. */
  addQuestion(message: StoredMessage, asker: QuestionAsker): void {
    if (!message.question) return;
    this.sql.exec(
      "INSERT OR IGNORE INTO questions (id, message, asker, state) VALUES (?, ?, ?, 'open')",
      message.question.id,
      JSON.stringify(message),
      JSON.stringify(asker),
    );
    this.states = null;
  }

  /** The question of `id`, or null for one this conversation never had. */
  question(id: string): QuestionRow | null {
    const row = this.sql
      .exec<{ message: string; asker: string; state: QuestionRow["state"] }>(
        "SELECT message, asker, state FROM questions WHERE id = ?",
        id,
      )
      .toArray()[0];
    if (!row) return null;
    const message = JSON.parse(row.message) as StoredMessage;
    if (!message.question) return null;
    return {
      ...message.question,
      message,
      asker: JSON.parse(row.asker) as QuestionAsker,
      state: row.state,
    };
  }

  /** Every open question (a conversation holds few). */
  openQuestions(): QuestionRow[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM questions WHERE state = 'open'")
      .toArray()
      .map((row) => this.question(row.id))
      .filter((row): row is QuestionRow => row !== null);
  }

  setState(id: string, state: "answered" | "closed"): void {
    this.sql.exec("UPDATE questions SET state = ? WHERE id = ?", state, id);
    this.states = null;
  }

  /** `messages` with each question's `closed` as it stands now (copies; the store's are shared). */
  withStates(messages: StoredMessage[]): StoredMessage[] {
    if (!messages.some((message) => message.question)) return messages;
    this.states ??= new Map(
      this.sql
        .exec<{ id: string; state: QuestionRow["state"] }>("SELECT id, state FROM questions")
        .toArray()
        .map((row) => [row.id, row.state]),
    );
    const states = this.states;
    return messages.map((message) => {
      if (!message.question) return message;
      const closed = (states.get(message.question.id) ?? "closed") !== "open";
      return { ...message, question: { ...message.question, ...(closed ? { closed } : {}) } };
    });
  }

  /** Deletes every row (docs/security.md#erasure); returns how many early messages there were. */
  erase(): number {
    const early = this.sql.exec("DELETE FROM early").rowsWritten;
    this.sql.exec("DELETE FROM questions");
    this.sql.exec("DELETE FROM posted");
    this.states = null;
    return early;
  }
}

/** The runner shard of `asker` as far as questions go (docs/chat.md#questions). */
function askerRunner(env: AppBindings, asker: QuestionAsker): WorkflowRunnerQuestions {
  const stub: DurableObjectStub<WorkflowRunnerContract> = workflowRunner(
    env,
    asker.workflowId,
    asker.shard,
  );
  // The runner implements WorkflowRunnerQuestions as part of its contract (docs/chat.md#questions).
  return stub as unknown as WorkflowRunnerQuestions;
}

/**
 * Tells the asker the person's answer, or that the question closed unanswered.
 * @throws when the runner cannot be reached; the outbox retries
 */
export async function tellAsker(env: AppBindings, item: AskerItem): Promise<void> {
  const { executionId, nodeKey } = item.asker;
  const runner = askerRunner(env, item.asker);
  if (item.kind === "answer") {
    await runner.answerQuestion({
      executionId,
      nodeKey,
      questionId: item.questionId,
      answer: item.answer,
      answeredAt: item.at,
    });
  } else {
    await runner.closeQuestion({
      executionId,
      nodeKey,
      questionId: item.questionId,
      closedAt: item.at,
    });
  }
}
