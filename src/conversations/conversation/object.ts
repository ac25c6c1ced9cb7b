/**
 * Conversation: one SQLite-backed Durable Object per link session, the only holder of its messages
 * (docs/api/conversations.md, docs/architecture.md#conversation). Sockets use the hibernation API;
 * notifications to others go through an outbox the alarm retries (at least once).
 */
import { DurableObject } from "cloudflare:workers";
import { randomBase64Url, sha256Hex } from "../../platform/crypto";
import type { AppBindings } from "../../platform/env";
import { ApiError, errorResponse } from "../../platform/errors";
import { chooseBrain, renderAgentText } from "../brains";
import { loadMarkdown, richWire } from "../markdown";
import { CLOSE_CODES, IDLE_TIMEOUT_MS, parseClientFrame } from "../protocol";
import { admitMessage, admitOpen } from "./admission";
import { nextAlarmAt } from "./alarm-time";
import type {
  ConversationContract,
  ConversationFacts,
  ConversationView,
  EndReason,
  OpenResult,
  PostedMessage,
  RateResult,
  StoredMessage,
  WorkflowMessage,
} from "./contract";
import { OutboxDelivery, outboxId } from "./outbox";
import { type PendingLink, QuestionStore } from "./questions";
import { rateConversation } from "./rating";
import { ReplyDesk } from "./replies";
import { broadcast, closeAll, sendError, sendRefusal } from "./sockets";
import { ConversationStore, messageId, type OutboxItem } from "./store";
import { WorkflowDesk } from "./workflow-desk";

/** A socket ticket must be used within this time. */
const TICKET_TTL_MS = 60_000;
/** Live sockets one conversation accepts (docs/limits.md#chat). */
export const MAX_SOCKETS = 8;

/** One conversation (docs/architecture.md#conversation): its messages, sockets, lifecycle and outbox. */
export class Conversation extends DurableObject<AppBindings> implements ConversationContract {
  private readonly store: ConversationStore;
  private readonly outbox: OutboxDelivery;
  private readonly replies: ReplyDesk;
  private readonly questions: QuestionStore;
  private readonly desk: WorkflowDesk;
  /** The alarm as set (epoch ms, null for none); undefined until read after the object starts. */
  private alarmAt: number | null | undefined;
  /** Set by `erase`: nothing still under way (a reply, a delivery) may store or schedule again. */
  private erased = false;

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    // Stored replies carry their Markdown blocks: every path that stores or sends one is sync.
    void ctx.blockConcurrencyWhile(loadMarkdown);
    this.store = new ConversationStore(ctx.storage.sql);
    this.questions = new QuestionStore(ctx.storage.sql);
    this.outbox = new OutboxDelivery(env, this.store);
    this.replies = new ReplyDesk(chooseBrain(env), this.store, () => this.ctx.getWebSockets(), {
      post: (reply) => this.post({ ...reply, role: "agent", at: Date.now() }),
      after: (end) => (end ? this.end("agent", Date.now()) : this.scheduleAlarm()),
    });
    this.desk = new WorkflowDesk(this.store, this.questions, {
      sockets: () => this.ctx.getWebSockets(),
      post: (message) => this.post(message),
      enqueue: (item) => this.enqueue(item),
      expire: (now) => this.end("expired", now),
      schedule: () => this.scheduleAlarm(),
    });
  }

  /** Starts the conversation (first call) or resumes it; idempotent; opens are rate limited. */
  async open(facts: ConversationFacts, now = Date.now()): Promise<OpenResult> {
    const wait = admitOpen(this.store.openTimes(now - 60_000), now);
    if (wait !== null) return { opened: false, retryAfterSeconds: wait };
    this.store.addOpen(now);
    if (!this.store.facts()) {
      this.store.setFacts(facts);
      this.store.setState({ endedAt: null, endReason: null, lastActivityAt: now });
      if (facts.agentMode === "initiator") {
        const greeting = renderAgentText(facts.greeting ?? "", facts).trim();
        if (greeting) this.store.addMessage(message("agent", greeting, now));
      }
      // What workflows wrote before anyone opened the link (proactive messages) follows it.
      this.desk.handOverEarly();
      this.enqueue({ kind: "event", id: outboxId(), event: "conversation.started", at: now });
    }
    const state = this.store.state();
    const ended = state?.endedAt != null;
    let ticket: string | undefined;
    if (!ended) {
      ticket = randomBase64Url(32);
      this.store.addTicket(await sha256Hex(ticket), now + TICKET_TTL_MS);
    }
    await this.scheduleAlarm();
    const rating = this.store.kept("rating");
    const view: ConversationView = {
      status: ended ? "ended" : "in-progress",
      messages: this.questions.withStates(this.store.messages(-1, true)),
      ticket,
      ...(rating ? { rating } : {}),
    };
    return { opened: true, view };
  }

  /**
   * Accepts a WebSocket for a one-time `?ticket=`. Refuses with the error envelope: 403
   * invalid_ticket, 410 conversation_ended, 429 too_many_connections past MAX_SOCKETS.
   */
  override async fetch(request: Request): Promise<Response> {
    const refuse = (error: ApiError) =>
      errorResponse(error, request.headers.get("x-request-id") ?? "");
    const ticket = new URL(request.url).searchParams.get("ticket") ?? "";
    if (this.erased) return refuse(new ApiError(410, "conversation_ended", "The link is gone."));
    if (!ticket || !this.store.takeTicket(await sha256Hex(ticket), Date.now())) {
      return refuse(
        new ApiError(403, "invalid_ticket", "Unknown or used ticket; open the session again."),
      );
    }
    if (this.store.state()?.endedAt != null) {
      return refuse(new ApiError(410, "conversation_ended", "The conversation has ended."));
    }
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS) {
      const limit = `At most ${MAX_SOCKETS} live connections per conversation.`;
      return refuse(new ApiError(429, "too_many_connections", limit));
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    // The page learns at once whether a reply is on its way (or owed: docs/api/conversations.md#replies).
    this.replies.greet(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const frame = parseClientFrame(data);
    if (typeof frame === "string") return sendError(ws, "invalid_message", frame);
    const state = this.store.state();
    const facts = this.store.facts();
    if (!state || !facts || state.endedAt !== null) {
      return sendError(ws, "conversation_ended", "This conversation has ended.");
    }
    // The alarm may not have run yet at the very moment of expiry.
    if (Date.now() >= facts.expiresAt) return this.end("expired", Date.now());
    if (frame.type === "end") return this.end("person", Date.now());
    if (frame.type === "retry") return this.replies.retry(ws, facts, Date.now());
    // Answers go to the workflow that asked; the agent does not reply to them.
    if (frame.type === "answer") return this.desk.answer(ws, frame, Date.now());

    const now = Date.now();
    // The stored history is the log of the rate limit: exact across hibernation.
    const admitted = admitMessage(frame.text, this.store.personMessageTimes(now - 60_000), now);
    if ("code" in admitted) return sendRefusal(ws, admitted);
    this.post(message("person", admitted.text, now));
    await this.replies.answer(facts);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "closing");
    } catch {} // already closed
  }

  /** A workflow's message (docs/chat.md#questions): to live sockets, or kept for the next open. */
  async postWorkflowMessage(
    message: WorkflowMessage,
    link: PendingLink,
    now = Date.now(),
  ): Promise<PostedMessage> {
    if (this.erased) return { ok: false, reason: "revoked" };
    return this.desk.post(message, link, now);
  }

  /** Closes a question whose ask_person timed out (see the contract); the asker knows already. */
  async closeQuestion(questionId: string): Promise<boolean> {
    return !this.erased && this.desk.closeQuestion(questionId);
  }

  /** The link was revoked: end the conversation and close every socket at once. */
  async revoke(now = Date.now()): Promise<void> {
    if (!this.store.facts()) {
      // Never opened: a workflow's later message is refused, its open questions close.
      if (this.store.kept("revokedAt") !== null) return;
      this.store.keep("revokedAt", now);
      this.desk.closeQuestions(now);
      return this.scheduleAlarm();
    }
    if (this.store.kept("revokedAt") === null) this.store.keep("revokedAt", now);
    // Your server revoked it: `server`, the word events to endpoints use too (docs/events.md).
    this.finish("server", now);
    closeAll(this.ctx.getWebSockets(), { type: "revoked" }, CLOSE_CODES.revoked, "revoked");
    await this.scheduleAlarm();
  }

  /** Erased with its person or its workspace: every socket closed, everything stored deleted. */
  async erase(): Promise<number> {
    this.erased = true;
    closeAll(this.ctx.getWebSockets(), { type: "revoked" }, CLOSE_CODES.revoked, "erased");
    // Every row goes; the tables stay, so a call still under way finds them empty, not missing.
    const messages = this.store.erase() + this.questions.erase();
    await this.ctx.storage.deleteAlarm();
    this.alarmAt = null;
    return messages;
  }

  /** Keeps the person's rating of the ended conversation, once (see the contract). */
  async rate(
    rating: { score: number; comment: string | null },
    now = Date.now(),
  ): Promise<RateResult> {
    const result = rateConversation(this.store, rating, now);
    const rated = result.ok ? result.rating : undefined;
    if (rated)
      this.enqueue({
        kind: "event",
        id: outboxId(),
        event: "conversation.rated",
        at: now,
        rating: rated,
      });
    return result;
  }

  /** Every message, oldest first (docs/events.md#transcripts). */
  async transcript(): Promise<StoredMessage[]> {
    return this.questions.withStates(this.store.messages());
  }

  /** Ends an open conversation (person, agent, idle or expired); a no-op once ended. */
  async end(reason: EndReason, now = Date.now()): Promise<void> {
    if (!this.finish(reason, now)) return;
    this.enqueue({ kind: "link-ended", id: outboxId(), at: now, reason });
    // The link expired mid-chat (docs/api/conversations.md#lifecycle): sockets get `expired`, 4411.
    const frame = reason === "expired" ? "expired" : "ended";
    closeAll(this.ctx.getWebSockets(), { type: frame }, CLOSE_CODES[frame], frame);
    await this.scheduleAlarm();
  }

  /** Delivers due notifications; ends the conversation at link expiry or idle timeout, whichever first. */
  override async alarm(): Promise<void> {
    // The alarm that runs is spent, whenever it was due: the next one must be set anew.
    this.alarmAt = null;
    const now = Date.now();
    const state = this.store.state();
    const facts = this.store.facts();
    const activeAt = this.store.lastActivityAt();
    if (state && facts && activeAt !== null && state.endedAt === null) {
      const idleAt = activeAt + IDLE_TIMEOUT_MS;
      if (now >= facts.expiresAt && facts.expiresAt <= idleAt) await this.end("expired", now);
      else if (now >= idleAt) await this.end("idle", now);
    } else if (!facts) this.desk.expirePending(now);
    await this.deliverOutbox(now);
    await this.scheduleAlarm();
  }

  private finish(reason: EndReason, now: number): boolean {
    const state = this.store.state();
    if (!state || state.endedAt !== null) return false;
    this.store.setState({ ...state, endedAt: now, endReason: reason });
    this.desk.closeQuestions(now);
    this.enqueue({ kind: "event", id: outboxId(), event: "conversation.ended", at: now, reason });
    return true;
  }

  private post(message: StoredMessage): void {
    // Erased meanwhile (a reply in flight), here or before the object restarted: nothing is kept.
    if (this.erased || !this.store.facts()) return;
    const stored = this.store.addMessage(message);
    broadcast(this.ctx.getWebSockets(), { type: "message", message: richWire(stored) });
  }

  private enqueue(item: OutboxItem): void {
    if (this.erased) return;
    this.store.enqueue(item, item.at);
    // Delivered right away when possible; the alarm retries whatever fails.
    this.ctx.waitUntil(this.deliverOutbox(item.at));
  }

  private async deliverOutbox(now: number): Promise<void> {
    await this.outbox.deliver(now);
    await this.scheduleAlarm();
  }

  private async scheduleAlarm(): Promise<void> {
    if (this.erased) return;
    const at = nextAlarmAt(this.store, this.desk.pendingExpiry(), Date.now());
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    // An earlier pending alarm stays: waking early costs less than a write per message.
    const set = this.alarmAt;
    if (set === at || (at !== null && set !== null && set > Date.now() && set <= at)) return;
    if (at === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(at);
    this.alarmAt = at;
  }
}

function message(role: StoredMessage["role"], text: string, at: number): StoredMessage {
  return { id: messageId(), role, text, at };
}
