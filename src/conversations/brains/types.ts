/** What every agent brain is (docs/api/conversations.md#replies). */
import type { AnalysisSettings } from "../../db/schema";
import type { ConversationContext } from "../conversation/contract";

/** One message of the history, oldest first. */
export type HistoryMessage = { role: "agent" | "person"; text: string };

/** A reply; `end: true` means the agent ends the conversation after it. */
export type BrainReply = { text: string; end: boolean };

/** Where a reply's pieces of text go as they come, in order; together they are its text so far. */
export type DeltaSink = (text: string) => void;

/** What a brain analyses once a conversation ended (docs/api/conversations.md#analysis). */
export type AnalysisRequest = {
  context: ConversationContext;
  /** Every message, oldest first. */
  transcript: HistoryMessage[];
  settings: AnalysisSettings;
};

/** A brain's analysis as it gave it: any JSON, validated against the fields afterwards. */
export type RawAnalysis = { summary?: unknown; data?: unknown };

/** Produces the agent's reply to the newest person message (the last of `history`). */
export interface AgentBrain {
  readonly kind: "workers-ai" | "openai" | "scripted";
  /**
   * Streams pieces to `onDelta`, then resolves with the whole reply (differing by trimming only);
   * rejects when the model fails; `signal` aborts (the deadline).
   */
  reply(
    context: ConversationContext,
    history: HistoryMessage[],
    onDelta: DeltaSink,
    signal: AbortSignal,
  ): Promise<BrainReply>;
  /**
   * Summarises the ended conversation and fills the fields, in the model's JSON output mode where
   * it has one; rejects when the model fails or answers no JSON; `signal` aborts (the deadline).
   */
  analyze(request: AnalysisRequest, signal: AbortSignal): Promise<RawAnalysis>;
}
