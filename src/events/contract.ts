/** Shapes of lifecycle events shared by the ledger, the outbox and the consumer (docs/events.md#bodies). */
import type { EndReason } from "../conversations/conversation/contract";
import type { ConversationAnalysis } from "../db/schema";

/** The link as events show it: the look-up shape without its conversation (docs/events.md#bodies). */
export type EventLink = {
  id: string;
  status: string;
  expiresAt: string;
  flowId: string;
  channelId: string;
  createdAt: string;
  participant: { name: string | null; externalId: string | null };
  metadata: Record<string, string>;
};

/** The conversation as events show it; null before the link was first opened. */
export type EventConversation = {
  sessionId: string;
  status: "in-progress" | "ended";
  startedAt: string;
  endedAt: string | null;
} | null;

/** Why a conversation ended, as `conversation.ended` says it: the conversation's own words. */
export type EventEndReason = EndReason;

/** The `data` of an event body. */
export type EventData = {
  link: EventLink;
  conversation: EventConversation;
  /** `conversation.ended` only. */
  reason?: EventEndReason;
  /** `conversation.analyzed` only (docs/events.md#conversationanalyzed). */
  analysis?: ConversationAnalysis;
};

/** The queue's message: which delivery to attempt. */
export type DeliveryMessage = { deliveryId: string };
