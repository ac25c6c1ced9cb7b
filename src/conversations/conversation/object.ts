/**
 * Conversation: one SQLite-backed Durable Object per conversation (named by its session id), the
 * only holder of its messages (docs/api/conversations.md).
 *
 * - `open` starts the conversation on the link's first opening (the initiator's greeting is the
 *   first message) and resumes it afterwards; each call hands out a one-time socket ticket.
 * - Messages travel over WebSockets accepted with the hibernation API, so an idle chat costs no
 *   memory; everything lives in storage and survives eviction.
 * - The conversation ends when the person or the agent ends it, after 30 minutes without a
 *   message (alarm), or when the link is revoked (`revoke`, which also closes the sockets at once).
 * - What must reach others (workflow events, the link's move to `ended`) goes through an outbox in
 *   the same storage and is retried by the alarm until delivered: at least once.
 */
import { DurableObject } from "cloudflare:workers";
import { linkLedger } from "../../launch/ledger/client";
import { randomBase64Url, sha256Hex } from "../../platform/crypto";
import type { AppBindings } from "../../platform/env";
import { ApiError, errorResponse } from "../../platform/errors";
import { log } from "../../platform/log";
import { SlidingWindowLog } from "../../platform/sliding-window";
import { type AgentBrain, chooseBrain, renderAgentText } from "../brain";
import { deliverConversationEvent } from "../events";
import {
  CHAT_LIMITS,
  CLOSE_CODES,
  frameText,
  IDLE_TIMEOUT_MS,
  parseClientFrame,
  type ServerFrame,
  toWire,
} from "../protocol";
import type {
  ConversationContract,
  ConversationFacts,
  ConversationView,
  EndReason,
  OpenResult,
  StoredMessage,
} from "./contract";
import { sendError, trySend } from "./sockets";
import { ConversationStore, linkEndReason, type OutboxItem } from "./store";

/** A socket ticket must be used within this time. */
const TICKET_TTL_MS = 60_000;
/** Live sockets one conversation accepts (docs/limits.md#chat). */
export const MAX_SOCKETS = 8;
const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/** Newest messages handed to the brain with each person message. */
const BRAIN_HISTORY = 30;

/** One conversation (docs/architecture.md#conversation): its messages, sockets, lifecycle and outbox. */
export class Conversation extends DurableObject<AppBindings> implements ConversationContract {
  private readonly store: ConversationStore;
  private readonly brain: AgentBrain;
  /** Outbox items being delivered right now. */
  private readonly delivering = new Set<string>();

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    this.store = new ConversationStore(ctx.storage.sql);
    this.brain = chooseBrain(env);
  }

  /** Starts the conversation (first call) or resumes it; idempotent; opens are rate limited. */
  async open(facts: ConversationFacts, now = Date.now()): Promise<OpenResult> {
    const opens = new SlidingWindowLog(this.store.openTimes(now - 60_000)).attempt(
      now,
      CHAT_LIMITS.sessionOpensPerMinute,
      60_000,
    );
    if (!opens.allowed) return { opened: false, retryAfterSeconds: opens.retryAfterSeconds };
    this.store.addOpen(now);
    if (!this.store.facts()) {
      this.store.setFacts(facts);
      this.store.setState({ endedAt: null, endReason: null, lastActivityAt: now });
      if (facts.agentMode === "initiator") {
        const greeting = renderAgentText(facts.greeting ?? "", facts).trim();
        if (greeting) this.store.addMessage(message("agent", greeting, now));
      }
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
    const view: ConversationView = {
      status: ended ? "ended" : "in-progress",
      messages: this.store.messages(),
      ticket,
    };
    return { opened: true, view };
  }

  /**
   * Accepts a WebSocket for a valid one-time ticket (`?ticket=`); the Worker checked the path and
   * the upgrade. Refusals are the error envelope: 403 invalid_ticket, 410 conversation_ended, 429
   * too_many_connections past MAX_SOCKETS live sockets.
   */
  override async fetch(request: Request): Promise<Response> {
    const refuse = (error: ApiError) =>
      errorResponse(error, request.headers.get("x-request-id") ?? "");
    const ticket = new URL(request.url).searchParams.get("ticket") ?? "";
    if (!ticket || !this.store.takeTicket(await sha256Hex(ticket), Date.now())) {
      return refuse(
        new ApiError(403, "invalid_ticket", "Unknown or used ticket; open the session again."),
      );
    }
    if (this.store.state()?.endedAt != null) {
      return refuse(new ApiError(410, "conversation_ended", "The conversation has ended."));
    }
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS) {
      return refuse(
        new ApiError(
          429,
          "too_many_connections",
          `At most ${MAX_SOCKETS} live connections per conversation.`,
        ),
      );
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
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
    if (frame.type === "end") return this.end("person", Date.now());

    const text = frame.text.trim();
    if (text.length === 0) return sendError(ws, "invalid_message", "The message is empty.");
    if (text.length > CHAT_LIMITS.maxMessageChars) {
      return sendError(
        ws,
        "message_too_long",
        `A message has at most ${CHAT_LIMITS.maxMessageChars} characters.`,
      );
    }
    const now = Date.now();
    // The stored history is the log: exact across hibernation, nothing kept in memory.
    const rate = new SlidingWindowLog(this.store.personMessageTimes(now - 60_000)).attempt(
      now,
      CHAT_LIMITS.messagesPerMinute,
      60_000,
    );
    if (!rate.allowed) {
      return sendError(
        ws,
        "rate_limited",
        `At most ${CHAT_LIMITS.messagesPerMinute} messages per minute.`,
        [{ retryAfterSeconds: rate.retryAfterSeconds }],
      );
    }
    this.post(message("person", text, now));
    const reply = await this.brain.reply(facts, this.store.messages(BRAIN_HISTORY));
    // The conversation may have ended (revoked, ended in another tab) while the brain thought.
    if (this.store.state()?.endedAt != null) return;
    this.post(message("agent", reply.text, Date.now()));
    if (reply.end) await this.end("agent", Date.now());
    else await this.scheduleAlarm();
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "closing");
    } catch {} // already closed
  }

  /** The link was revoked: end the conversation and close every socket at once. */
  async revoke(now = Date.now()): Promise<void> {
    if (!this.store.facts()) return;
    this.finish("revoked", now);
    this.closeAll({ type: "revoked" }, CLOSE_CODES.revoked, "revoked");
    await this.scheduleAlarm();
  }

  /** Every message, oldest first (docs/events.md#transcripts). */
  async transcript(): Promise<StoredMessage[]> {
    return this.store.messages();
  }

  /** Ends an open conversation (person, agent or idle); a no-op once ended. */
  async end(reason: Exclude<EndReason, "revoked">, now = Date.now()): Promise<void> {
    if (!this.finish(reason, now)) return;
    this.enqueue({ kind: "link-ended", id: outboxId(), at: now, reason });
    this.closeAll({ type: "ended" }, CLOSE_CODES.ended, "ended");
    await this.scheduleAlarm();
  }

  /** Delivers due notifications; ends the conversation once it has been idle too long. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const state = this.store.state();
    if (state && state.endedAt === null && now >= state.lastActivityAt + IDLE_TIMEOUT_MS) {
      await this.end("idle", now);
    }
    await this.deliverOutbox(now);
    await this.scheduleAlarm();
  }

  private finish(reason: EndReason, now: number): boolean {
    const state = this.store.state();
    if (!state || state.endedAt !== null) return false;
    this.store.setState({ ...state, endedAt: now, endReason: reason });
    this.enqueue({ kind: "event", id: outboxId(), event: "conversation.ended", at: now, reason });
    return true;
  }

  private post(stored: StoredMessage): void {
    this.store.addMessage(stored);
    const state = this.store.state();
    if (state) this.store.setState({ ...state, lastActivityAt: stored.at });
    const frame = frameText({ type: "message", message: toWire(stored) });
    for (const socket of this.ctx.getWebSockets()) trySend(socket, frame);
  }

  private closeAll(frame: ServerFrame, code: number, reason: string): void {
    const text = frameText(frame);
    for (const socket of this.ctx.getWebSockets()) {
      trySend(socket, text);
      try {
        socket.close(code, reason);
      } catch {} // already closing
    }
  }

  private enqueue(item: OutboxItem): void {
    this.store.enqueue(item, item.at);
    // Delivered right away when possible; the alarm retries whatever fails.
    this.ctx.waitUntil(this.deliverOutbox(item.at));
  }

  private async deliverOutbox(now: number): Promise<void> {
    const facts = this.store.facts();
    if (!facts) return;
    for (const { item, attempts } of this.store.dueOutbox(now)) {
      // The alarm and a fresh enqueue may overlap; one delivery of an item at a time.
      if (this.delivering.has(item.id)) continue;
      this.delivering.add(item.id);
      try {
        if (item.kind === "link-ended") {
          await linkLedger(this.env, facts.workspaceId).endLink(
            facts.workspaceId,
            facts.linkId,
            item.at,
            item.reason ?? linkEndReason(this.store.state()?.endReason),
          );
        } else {
          await deliverConversationEvent(this.env, facts, item);
        }
        this.store.delivered(item.id);
      } catch (error) {
        const delay = OUTBOX_RETRY_MS[Math.min(attempts, OUTBOX_RETRY_MS.length - 1)] ?? 600_000;
        this.store.retryLater(item.id, Date.now() + delay);
        log("warn", "outbox_retry", { kind: item.kind, error });
      } finally {
        this.delivering.delete(item.id);
      }
    }
    await this.scheduleAlarm();
  }

  private async scheduleAlarm(): Promise<void> {
    const state = this.store.state();
    const times = [this.store.nextOutboxDue()];
    if (state && state.endedAt === null) times.push(state.lastActivityAt + IDLE_TIMEOUT_MS);
    const next = Math.min(...times.filter((t): t is number => t !== null));
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
    else await this.ctx.storage.deleteAlarm();
  }
}

/** An outbox item's id; secret enough that execution ids derived from it stay unguessable. */
function outboxId(): string {
  return `out_${randomBase64Url(16)}`;
}

function message(role: StoredMessage["role"], text: string, at: number): StoredMessage {
  return { id: `msg_${randomBase64Url(12)}`, role, text, at };
}
