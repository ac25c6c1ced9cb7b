/** The Conversation object's RPC interface and its shapes (docs/architecture.md#conversation). */
import type { AnalysisSettings } from "../../db/schema";
import type { JsonValue } from "../../platform/json";
import type { Block } from "../protocol";

/** What the agent knows about its conversation (docs/api/conversations.md#the-prompt): the person, the parameters, the task. */
export type ConversationContext = {
  agent: { name: string; instructions: string | null; model: string | null };
  participant: { name: string | null };
  parameters: Record<string, JsonValue>;
  globalTask: string | null;
};

/**
 * A workflow's question as a message carries it (docs/chat.md#questions), never its asker;
 * `closed` once answered or when the conversation or link ended.
 */
export type StoredQuestion = {
  id: string;
  options: { label: string; value: string }[];
  allowText: boolean;
  closed?: boolean;
};

/**
 * A chat message (docs/api/conversations.md), `at` in epoch ms; `interrupted`: a reply cut off
 * midway; `blocks`: an agent message's parsed Markdown (docs/chat.md#formatting), if stored;
 * `source: "workflow"`: written by a workflow (docs/chat.md#messages-from-workflows); `answerTo`: the
 * person's answer to that question, which the agent does not reply to.
 */
export type StoredMessage = {
  id: string;
  role: "agent" | "person";
  text: string;
  at: number;
  interrupted?: boolean;
  blocks?: Block[];
  source?: "workflow";
  question?: StoredQuestion;
  answerTo?: string;
};

/** A message a workflow writes into the conversation (docs/chat.md#messages-from-workflows). */
export type WorkflowMessage = {
  /** Derived by the caller from execution and node (`msg_` + 24 hex of sha256(executionId/nodeKey)), so a retried call stores nothing twice. */
  id: string;
  /** Markdown, 1 to 2,000 characters. */
  text: string;
  /** ask_person's question: the chat shows options as buttons, and a text answer when allowed. */
  question?: {
    id: string; // `qst_` + 24 hex of sha256(executionId/nodeKey)
    options: { label: string; value: string }[]; // 0 to 10
    allowText: boolean;
    /** Where the answer and the closing go. */
    asker: { workflowId: string; shard: number; executionId: string; nodeKey: string };
  };
};

/** `delivered`: `live` when at least one socket was open and got it, else `stored` (shown at the next open). */
export type PostedMessage =
  | { ok: true; messageId: string; delivered: "live" | "stored" }
  | { ok: false; reason: "ended" | "revoked" | "expired" }
  /** Blank or too long once resolved, or a malformed question: `message` says why. */
  | { ok: false; reason: "invalid"; message: string };

/**
 * Why a conversation ended, one word for each fact wherever it is shown (events to endpoints,
 * workflow triggers, the dashboard; docs/events.md#event-types): `server` is your server,
 * `POST …/{id}/end` or revoking an open link; `expired`: the link expired mid-chat.
 */
export const END_REASONS = ["person", "agent", "idle", "server", "expired"] as const;

/** One of END_REASONS. */
export type EndReason = (typeof END_REASONS)[number];

/** What the object knows about its conversation; set once by the first `open`. */
export type ConversationFacts = ConversationContext & {
  sessionId: string;
  linkId: string;
  workspaceId: string;
  flowId: string;
  channelId: string;
  agentMode: "initiator" | "responder";
  /** The initiator's first message, a template (see `renderAgentText`). */
  greeting: string | null;
  participantExternalId: string | null;
  /** Epoch ms. */
  startedAt: number;
  /** The link's expiry (epoch ms): an ended conversation stays readable until then. */
  expiresAt: number;
  /** The agent's analysis as the conversation opened; absent or null for none (docs/api/manage.md#analysis). */
  analysis?: AnalysisSettings | null;
};

/** The person's rating of the ended conversation (docs/api/conversations.md#rating); `ratedAt` epoch ms. */
export type ConversationRating = { score: number; comment: string | null; ratedAt: number };

/** `rate`'s answer: the rating kept, or why none was (`retryAfterSeconds` past the opens' limit). */
export type RateResult =
  | { ok: true; rating: ConversationRating }
  | {
      ok: false;
      reason: "not_ended" | "already_rated" | "rate_limited";
      retryAfterSeconds?: number;
    };

/** How `open` found the conversation; `ticket` is absent once it ended (read-only). */
export type ConversationView = {
  status: "in-progress" | "ended";
  messages: StoredMessage[];
  ticket?: string;
  /** The person's rating, once given. */
  rating?: ConversationRating;
};

/** `open`'s answer: the view, or a refusal past the per-link limit of opens (whole seconds). */
export type OpenResult =
  | { opened: true; view: ConversationView }
  | { opened: false; retryAfterSeconds: number };

/** What the Conversation offers over RPC. Times are epoch milliseconds. */
export interface ConversationApi {
  /** Starts or resumes the conversation, with a one-time socket ticket (docs/limits.md#chat). */
  open(facts: ConversationFacts, now?: number): Promise<OpenResult>;
  /** The link was revoked: ends the conversation and closes every socket at once. */
  revoke(now?: number): Promise<void>;
  /** Ends an open conversation; a no-op once ended. */
  end(reason: EndReason, now?: number): Promise<void>;
  /** Stores an agent message with `source: "workflow"` and sends it to live sockets; a repeat of the same id returns the first outcome. Before the first open it is kept and shown after the greeting. */
  postWorkflowMessage(
    message: WorkflowMessage,
    link: { linkId: string; workspaceId: string; expiresAt: number },
    now?: number,
  ): Promise<PostedMessage>;
  /**
   * Closes the open question `questionId` (its ask_person timed out, docs/chat.md#questions): live
   * sockets get its message again with `closed: true`, a later answer gets `question_closed`, and
   * the asker is not told. False when there is no such open question (a repeat, answered, erased).
   */
  closeQuestion(questionId: string): Promise<boolean>;
  /**
   * Keeps the person's rating of the ended conversation, once (docs/api/conversations.md#rating),
   * counted against the per-link limit of opens; the ledger records it and workflows hear it
   * through the outbox (`conversation.rated`).
   */
  rate(rating: { score: number; comment: string | null }, now?: number): Promise<RateResult>;
  /** Every message, oldest first, for `conversation.ended` with a transcript (docs/events.md). */
  transcript(): Promise<StoredMessage[]>;
  /**
   * Erases the conversation (docs/security.md#erasure, docs/api/manage.md#deleting-a-workspace):
   * sockets get `revoked`, everything stored and any reply being written go.
   * @returns how many messages it held
   */
  erase(): Promise<number>;
  /** Accepts the chat socket for a valid one-time ticket (`?ticket=`), or refuses in the envelope. */
  fetch(request: Request): Promise<Response>;
}

/** The conversation as its namespace binding knows it. */
export interface ConversationContract extends ConversationApi, Rpc.DurableObjectBranded {}
