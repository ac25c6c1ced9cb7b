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

/** The person's rating of an ended conversation (docs/events.md#conversationrated). */
export type EventRating = {
  /** 1 to 5. */
  score: number;
  /** At most 1,000 characters; null without one. */
  comment: string | null;
  /** ISO 8601. */
  ratedAt: string;
};

/** The `data` of an event body. */
export type EventData = {
  link: EventLink;
  conversation: EventConversation;
  /** `conversation.ended` only. */
  reason?: EventEndReason;
  /** `conversation.analyzed` only (docs/events.md#conversationanalyzed). */
  analysis?: ConversationAnalysis;
  /** `conversation.rated` only. */
  rating?: EventRating;
};

/**
 * The queue's message: which delivery to attempt, with its event and endpoint, so the attempt reads
 * those rows directly instead of through the delivery's (docs/performance.md#counts-per-call).
 * Messages sent before the ids were carried have the delivery's id alone.
 */
export type DeliveryMessage = { deliveryId: string; eventId?: string; endpointId?: string };
