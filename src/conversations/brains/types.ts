/** What every agent brain is (docs/api/conversations.md#replies). */
import type { ConversationContext } from "../conversation/contract";

/** One message of the history, oldest first. */
export type HistoryMessage = { role: "agent" | "person"; text: string };

/** A reply; `end: true` means the agent ends the conversation after it. */
export type BrainReply = { text: string; end: boolean };

/** Where a reply's pieces of text go as they come, in order; together they are its text so far. */
export type DeltaSink = (text: string) => void;

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
}
