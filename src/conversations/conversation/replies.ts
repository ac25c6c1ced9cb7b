/**
 * One reply of the agent, bounded in time (docs/api/conversations.md#replies): the brain's answer,
 * or a failure the page can retry when the brain throws or takes longer than the deadline.
 */
import { log } from "../../platform/log";
import type { AgentBrain, BrainReply, HistoryMessage } from "../brain";
import type { ConversationContext } from "./contract";

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
