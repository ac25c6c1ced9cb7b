/**
 * The agent's replies in a conversation (docs/api/conversations.md#replies): each bounded in time,
 * announced with `typing`, and a failure (the brain threw, or passed REPLY_TIMEOUT_MS) told to
 * every socket as `reply_failed` so the page can ask again with a `retry` frame.
 */
import { log } from "../../platform/log";
import type { AgentBrain, BrainReply, HistoryMessage } from "../brain";
import { richWire } from "../markdown";
import { frameText, REPLY_TIMEOUT_MS, toWire } from "../protocol";
import { admitRetry } from "./admission";
import type { ConversationContext, ConversationFacts } from "./contract";
import { broadcast, sendError, sendRefusal, trySend } from "./sockets";
import type { ConversationStore } from "./store";

/** Newest messages handed to the brain with each reply. */
const BRAIN_HISTORY = 30;

/** How asking for a reply ended; `timeout`: no answer within the deadline (a late one is dropped). */
export type ReplyOutcome =
  | { ok: true; reply: BrainReply }
  | { ok: false; reason: "failed" | "timeout" };

/**
 * Asks `brain` for the reply to `history` (oldest first, the person's message last) and waits at
 * most `timeoutMs` milliseconds. Never throws: a brain error is logged and becomes `failed`.
 */
export async function replyWithin(
  brain: AgentBrain,
  context: ConversationContext,
  history: HistoryMessage[],
  timeoutMs: number,
): Promise<ReplyOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<ReplyOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: "timeout" }), timeoutMs);
  });
  const answer = brain.reply(context, history).then(
    (reply): ReplyOutcome => ({ ok: true, reply }),
    (error: unknown): ReplyOutcome => {
      log("warn", "brain_failed", { brain: brain.kind, error });
      return { ok: false, reason: "failed" };
    },
  );
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the conversation does with a reply the desk got. */
export type ReplyHandlers = {
  /** Stores the agent's message and sends it to every socket. */
  post(text: string): void;
  /** After posting: the agent ends the conversation (`end`), or the idle timer starts again. */
  after(end: boolean): Promise<void>;
};

/** Writes one conversation's replies. */
export class ReplyDesk {
  /**
   * Replies being written right now. In memory only: an object evicted meanwhile loses the reply,
   * and its history then ends with the person's message, which the page offers to retry.
   */
  private writing = 0;

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

  /** The agent's reply to the newest message: `typing` to every socket, then the reply or `reply_failed`. */
  async answer(facts: ConversationFacts): Promise<void> {
    this.writing += 1;
    broadcast(this.sockets(), { type: "typing", active: true });
    try {
      const history = this.store.messages(BRAIN_HISTORY);
      const outcome = await replyWithin(this.brain, facts, history, REPLY_TIMEOUT_MS);
      // The conversation may have ended (revoked, ended in another tab) while the brain thought.
      if (this.store.state()?.endedAt != null) return;
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
      this.on.post(outcome.reply.text);
      await this.on.after(outcome.reply.end);
    } finally {
      this.writing -= 1;
    }
  }

  /**
   * A `retry` frame from `ws`: the reply to the newest message is sent again when it exists, asked
   * for again when it does not and none is being written (at most RETRIES_PER_MINUTE a minute).
   */
  async retry(ws: WebSocket, facts: ConversationFacts, now: number): Promise<void> {
    const newest = this.store.messages(1)[0];
    if (newest?.role === "agent") {
      return trySend(ws, frameText({ type: "message", message: richWire(toWire(newest)) }));
    }
    if (this.busy) return trySend(ws, frameText({ type: "typing", active: true }));
    if (!newest) return sendError(ws, "invalid_message", "There is no message to answer yet.");
    const refused = admitRetry(this.store.retryTimes(now - 60_000), now);
    if (refused) return sendRefusal(ws, refused);
    this.store.addRetry(now);
    await this.answer(facts);
  }
}
