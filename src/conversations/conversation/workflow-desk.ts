/**
 * A workflow writing into the conversation (docs/chat.md#questions): send_message's and
 * ask_person's messages, the person's answers, and the closing of questions the conversation
 * outlived. The askers hear through the outbox (at least once).
 */
import { richWire } from "../markdown";
import { CHAT_LIMITS, type ClientFrame } from "../protocol";
import type { Refusal } from "./admission";
import type { PostedMessage, StoredMessage, WorkflowMessage } from "./contract";
import type { PendingLink, QuestionRow, QuestionStore } from "./questions";
import { broadcast, sendError, sendRefusal } from "./sockets";
import { type ConversationStore, messageId, type OutboxItem } from "./store";

/** Options one question offers at most (docs/chat.md#questions). */
export const MAX_QUESTION_OPTIONS = 10;

/** What the desk needs of its conversation. */
export type DeskHooks = {
  sockets(): WebSocket[];
  /** Stores a person's message and sends it to every socket. */
  post(message: StoredMessage): void;
  enqueue(item: OutboxItem): void;
  /** Ends the opened conversation whose link expired (sockets get `expired`). */
  expire(now: number): Promise<void>;
  /** Sets the alarm anew (a pending link's expiry, the outbox). */
  schedule(): Promise<void>;
};

type AnswerFrame = Extract<ClientFrame, { type: "answer" }>;

/** One conversation's workflow messages and questions. */
export class WorkflowDesk {
  constructor(
    private readonly store: ConversationStore,
    private readonly questions: QuestionStore,
    private readonly hooks: DeskHooks,
  ) {}

  /**
   * Stores a workflow's message: sent to live sockets at once, or kept for the next open (after
   * the greeting, before the first open). A repeat of an id gets the first outcome.
   * A message no node could send (blank or too long once its templates resolved, a malformed
   * question) is refused as `invalid` with why, as data: an RPC that throws would look like an outage.
   */
  async post(message: WorkflowMessage, link: PendingLink, now: number): Promise<PostedMessage> {
    const problem = messageProblem(message);
    if (problem) return { ok: false, reason: "invalid", message: problem };
    const first = this.questions.posted(message.id);
    if (first) return { ok: true, messageId: message.id, delivered: first };
    const refused = await this.refusal(link, now);
    if (refused) return { ok: false, reason: refused };
    const { question } = message;
    const stored: StoredMessage = {
      id: message.id,
      role: "agent",
      text: message.text.trim(),
      at: now,
      source: "workflow",
      ...(question
        ? {
            question: {
              id: question.id,
              options: question.options.map(({ label, value }) => ({ label, value })),
              allowText: question.allowText,
            },
          }
        : {}),
    };
    if (question) this.questions.addQuestion(stored, question.asker);
    let delivered: "live" | "stored" = "stored";
    if (this.store.facts()) {
      const kept = this.store.addMessage(stored);
      const frame = { type: "message" as const, message: richWire(kept) };
      if (broadcast(this.hooks.sockets(), frame) > 0) delivered = "live";
    } else {
      // Nobody opened the link yet: shown after the greeting when someone does.
      this.store.keep("pending", link);
      this.questions.keepEarly(stored);
    }
    this.questions.recordPost(message.id, delivered);
    await this.hooks.schedule();
    return { ok: true, messageId: message.id, delivered };
  }

  /**
   * The person's `answer` frame: a value of the options (shown as its label) or, when allowed,
   * text like a chat message. Refused with `question_closed` (answered, closed or unknown),
   * `invalid_request` (not an option, or empty) or `message_too_long`.
   */
  answer(ws: WebSocket, frame: AnswerFrame, now: number): void {
    const question = this.questions.question(frame.questionId);
    if (question?.state !== "open") {
      sendError(ws, "question_closed", "This question was answered or is closed.");
      return;
    }
    const admitted = admitAnswer(question, frame.value);
    if ("code" in admitted) {
      sendRefusal(ws, admitted);
      return;
    }
    const { text, answer } = admitted;
    this.questions.setState(question.id, "answered");
    this.hooks.post({ id: messageId(), role: "person", text, at: now, answerTo: question.id });
    this.hooks.enqueue({
      kind: "answer",
      id: `out_answer_${question.id}`,
      at: now,
      questionId: question.id,
      answer,
      asker: question.asker,
    });
    this.showClosed(question);
  }

  /** Closes every open question (the conversation ended, the link was revoked or expired). */
  closeQuestions(now: number): void {
    for (const question of this.questions.openQuestions()) {
      this.questions.setState(question.id, "closed");
      this.hooks.enqueue({
        kind: "close-question",
        id: `out_close_${question.id}`,
        at: now,
        questionId: question.id,
        asker: question.asker,
      });
      this.showClosed(question);
    }
  }

  /** Closes one open question its asker gave up on (timed out): not told back; false if none. */
  closeQuestion(questionId: string): boolean {
    const question = this.questions.question(questionId);
    if (question?.state !== "open") return false;
    this.questions.setState(question.id, "closed");
    this.showClosed(question);
    return true;
  }

  /** Before the first open: the link's expiry closes its open questions (the alarm's part). */
  expirePending(now: number): void {
    const link = this.store.kept("pending");
    if (!this.store.facts() && link && now >= link.expiresAt) this.closeQuestions(now);
  }

  /** When the alarm must close a never-opened link's questions (epoch ms), or null. */
  pendingExpiry(): number | null {
    const link = this.store.kept("pending");
    if (this.store.facts() || !link || this.store.kept("revokedAt") !== null) return null;
    return this.questions.openQuestions().length > 0 ? link.expiresAt : null;
  }

  /** Moves the messages kept before the first open into the history (after the greeting). */
  handOverEarly(): void {
    for (const message of this.questions.takeEarly()) this.store.addMessage(message);
  }

  /** Why a workflow's message is refused now, or null. */
  private async refusal(
    link: PendingLink,
    now: number,
  ): Promise<"ended" | "revoked" | "expired" | null> {
    if (this.store.kept("revokedAt") !== null) return "revoked";
    const facts = this.store.facts();
    if (!facts) return now >= link.expiresAt ? "expired" : null;
    const state = this.store.state();
    if (state?.endedAt != null) return state.endReason === "expired" ? "expired" : "ended";
    if (now >= facts.expiresAt) {
      // The alarm may not have run yet at the very moment of expiry.
      await this.hooks.expire(now);
      return "expired";
    }
    return null;
  }

  /** Sends the question's message again, closed: pages replace its buttons (docs/chat.md#questions). */
  private showClosed(question: QuestionRow): void {
    if (!this.store.facts()) return;
    const { id, options, allowText } = question;
    // Built field by field: the asker never reaches a page.
    const closed = { ...question.message, question: { id, options, allowText, closed: true } };
    broadcast(this.hooks.sockets(), { type: "message", message: richWire(closed) });
  }
}

/** The answer as shown (an option's label, or the text) and as the asker gets it, or the refusal. */
function admitAnswer(
  question: QuestionRow,
  value: string,
): { text: string; answer: string } | Refusal {
  const option = question.options.find((o) => o.value === value);
  if (option) return { text: option.label, answer: option.value };
  const text = value.trim();
  if (!question.allowText) {
    return {
      code: "invalid_request",
      message: "Answer with one of the question's options.",
      details: [{ field: "value", code: "invalid_option" }],
    };
  }
  if (!text) {
    return {
      code: "invalid_request",
      message: "The answer is empty.",
      details: [{ field: "value", code: "out_of_range" }],
    };
  }
  if (text.length > CHAT_LIMITS.maxMessageChars) {
    return {
      code: "message_too_long",
      message: `An answer has at most ${CHAT_LIMITS.maxMessageChars} characters.`,
    };
  }
  return { text, answer: text };
}

/** Why no node could send `message` (docs/chat.md#messages-from-workflows), or null. */
function messageProblem(message: WorkflowMessage): string | null {
  const text = message.text.trim();
  if (!message.id || text.length === 0 || text.length > CHAT_LIMITS.maxMessageChars) {
    return "A workflow message needs an id and 1 to 2,000 characters of text.";
  }
  const question = message.question;
  if (!question) return null;
  const values = new Set(question.options.map((o) => o.value));
  if (
    !question.id ||
    question.options.length > MAX_QUESTION_OPTIONS ||
    values.size !== question.options.length ||
    (question.options.length === 0 && !question.allowText)
  ) {
    return "A question needs an id and up to 10 distinct options, or a text answer.";
  }
  return null;
}
