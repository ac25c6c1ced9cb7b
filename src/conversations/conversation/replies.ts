/**
 * The agent's replies (docs/api/conversations.md#replies): `typing`, `delta` frames, then one stored
 * `message`; a failure or REPLY_TIMEOUT_MS is `reply_failed` (the page may `retry`), a stream cut off
 * after some text a whole message marked `interrupted`.
 */
import { log } from "../../platform/log";
import type { AgentBrain, BrainReply, HistoryMessage } from "../brains";
import { HISTORY_READ_LIMIT } from "../brains/prompt";
import { richWire } from "../markdown";
import { frameText, REPLY_TIMEOUT_MS } from "../protocol";
import { admitRetry } from "./admission";
import type { ConversationContext, ConversationFacts } from "./contract";
import { broadcast, sendError, sendRefusal, trySend } from "./sockets";
import { type ConversationStore, messageId } from "./store";

/** How asking for a reply ended; `partial`: the text streamed before a failure or the deadline. */
export type ReplyOutcome =
  | { ok: true; reply: BrainReply }
  | { ok: false; reason: "failed" | "timeout"; partial: string };

/**
 * Asks `brain` for the reply to `history` (oldest first), streaming pieces to `onDelta`, for at most
 * `timeoutMs`; then aborts. Never throws: a brain error is logged and becomes `failed`.
 */
export async function replyWithin(
  brain: AgentBrain,
  context: ConversationContext,
  history: HistoryMessage[],
  timeoutMs: number,
  onDelta: (text: string) => void = () => {},
): Promise<ReplyOutcome> {
  const abort = new AbortController();
  let partial = "";
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<ReplyOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: "timeout", partial }), timeoutMs);
  });
  const forward = (text: string) => {
    if (over) return;
    partial += text;
    onDelta(text);
  };
  const answer = brain.reply(context, history, forward, abort.signal).then(
    (reply): ReplyOutcome => ({ ok: true, reply }),
    (error: unknown): ReplyOutcome => {
      if (!over)
        log("warn", "brain_failed", { brain: brain.kind, error, streamed: partial.length });
      return { ok: false, reason: "failed", partial };
    },
  );
  let outcome: ReplyOutcome | undefined;
  try {
    outcome = await Promise.race([answer, deadline]);
    return outcome;
  } finally {
    over = true;
    clearTimeout(timer);
    // A brain that answered whole needs no abort (a model's stream is past its `[DONE]`, its end
    // read after it: event-stream.ts); aborting a request cost a twentieth of a round trip's CPU.
    if (!outcome?.ok) abort.abort(new Error("The reply's deadline passed."));
  }
}

/** What the conversation does with a reply the desk got. */
export type ReplyHandlers = {
  /** Stores the agent's message (whole, once) and sends it to every socket. */
  post(message: { id: string; text: string; interrupted?: boolean }): void;
  /** After posting: the agent ends the conversation (`end`), or the idle timer starts again. */
  after(end: boolean): Promise<void>;
};

/** Writes one conversation's replies. */
export class ReplyDesk {
  /** Replies being written; an eviction loses them, and the page offers a retry. */
  private writing = 0;
  /** Text streamed so far of each reply being written, by the id its message will have. */
  private readonly drafts = new Map<string, string>();

  constructor(
    private readonly brain: AgentBrain,
    private readonly store: ConversationStore,
    private readonly sockets: () => WebSocket[],
    private readonly on: ReplyHandlers,
  ) {}

  /** Whether a reply is being written. */
  get busy(): boolean {
    return this.writing > 0;
  }

  /** Tells an opening socket whether a reply is coming, and the text streamed so far. */
  greet(ws: WebSocket): void {
    trySend(ws, frameText({ type: "typing", active: this.busy }));
    for (const [id, text] of this.drafts) {
      if (text) trySend(ws, frameText({ type: "delta", id, text }));
    }
  }

  /** The agent's reply to the newest message, to every socket. */
  async answer(facts: ConversationFacts): Promise<void> {
    this.writing += 1;
    broadcast(this.sockets(), { type: "typing", active: true });
    const id = messageId();
    this.drafts.set(id, "");
    try {
      // Blocks included: copying up to 600 messages to drop them would cost every reply.
      const history = this.store.messages(HISTORY_READ_LIMIT, true);
      const outcome = await replyWithin(this.brain, facts, history, REPLY_TIMEOUT_MS, (text) => {
        this.drafts.set(id, (this.drafts.get(id) ?? "") + text);
        broadcast(this.sockets(), { type: "delta", id, text });
      });
      this.drafts.delete(id);
      // The conversation may have ended (revoked, ended in another tab) while the brain thought.
      if (this.store.state()?.endedAt != null) return;
      const partial = outcome.ok ? "" : outcome.partial.trim();
      if (partial) {
        // Cut off midway: what the person saw is kept, whole and marked, never half a row.
        this.on.post({ id, text: partial, interrupted: true });
        await this.on.after(false);
        return;
      }
      if (!outcome.ok) {
        const text =
          outcome.reason === "timeout"
            ? `The agent did not reply within ${REPLY_TIMEOUT_MS / 1000} s.`
            : "The agent could not reply.";
        for (const socket of this.sockets()) {
          sendError(socket, "reply_failed", text, [{ reason: outcome.reason }]);
        }
        return;
      }
      this.on.post({ id, text: outcome.reply.text });
      await this.on.after(outcome.reply.end);
    } finally {
      this.drafts.delete(id);
      this.writing -= 1;
    }
  }

  /** A `retry` frame: resends the newest reply, or asks again (at most RETRIES_PER_MINUTE a minute). */
  async retry(ws: WebSocket, facts: ConversationFacts, now: number): Promise<void> {
    const newest = this.store.messages(1, true)[0];
    if (newest?.role === "agent") {
      trySend(ws, frameText({ type: "message", message: richWire(newest) }));
      return;
    }
    if (this.busy) {
      trySend(ws, frameText({ type: "typing", active: true }));
      return;
    }
    // A person's answer to a workflow's question is the workflow's to act on, not the agent's.
    if (!newest || newest.answerTo) {
      return sendError(ws, "invalid_message", "There is no message to answer yet.");
    }
    const refused = admitRetry(this.store.retryTimes(now - 60_000), now);
    if (refused) return sendRefusal(ws, refused);
    this.store.addRetry(now);
    await this.answer(facts);
  }
}
