/** The deterministic brain, streaming word by word (docs/api/conversations.md#replies). */
import type { ConversationContext } from "../conversation/contract";
import { renderAgentText } from "./prompt";
import { scriptedAnalysis } from "./scripted-analysis";
import type {
  AgentBrain,
  AnalysisRequest,
  BrainReply,
  DeltaSink,
  HistoryMessage,
  RawAnalysis,
} from "./types";

const FAREWELL = /\b(bye|goodbye|good bye|that's all|that is all)\b/i;

/** Pause between two streamed words: about a small model's pace, quick enough for tests. */
export const SCRIPTED_WORD_DELAY_MS = 25;

/**
 * Answers from `keyword: answer` lines of the instructions (case-insensitive), else quotes the
 * message back; a farewell ends the conversation.
 */
export class ScriptedBrain implements AgentBrain {
  readonly kind = "scripted";

  constructor(private readonly wordDelayMs = SCRIPTED_WORD_DELAY_MS) {}

  async reply(
    context: ConversationContext,
    history: HistoryMessage[],
    onDelta: DeltaSink = () => {},
    signal: AbortSignal = new AbortController().signal,
  ): Promise<BrainReply> {
    const reply = scriptedReply(context, history);
    for (const word of reply.text.match(/\S+\s*/g) ?? []) {
      if (this.wordDelayMs > 0) await pause(this.wordDelayMs, signal);
      signal.throwIfAborted();
      onDelta(word);
    }
    return reply;
  }

  /** The deterministic stand-in (scripted-analysis.ts). */
  async analyze(request: AnalysisRequest): Promise<RawAnalysis> {
    return scriptedAnalysis(request);
  }
}

/** The scripted brain's reply, whole. */
function scriptedReply(context: ConversationContext, history: HistoryMessage[]): BrainReply {
  const message = history.findLast((m) => m.role === "person")?.text ?? "";
  const name = context.participant.name ? `, ${context.participant.name}` : "";
  if (FAREWELL.test(message))
    return { text: `Goodbye${name}! This chat is now closed.`, end: true };
  const answer = faqAnswer(context, message);
  if (answer) return { text: answer, end: false };
  const task = context.globalTask ? ` I'm here to help with: ${context.globalTask}` : "";
  return { text: `Thanks${name}. You wrote: "${message}".${task}`, end: false };
}

function faqAnswer(context: ConversationContext, message: string): string | null {
  const instructions = context.agent.instructions ?? "";
  const lower = message.toLowerCase();
  for (const line of instructions.split("\n")) {
    const match = /^\s*-?\s*([^:]{2,60}):\s*(.+)$/.exec(line);
    const keyword = match?.[1]?.trim().toLowerCase();
    if (keyword && match?.[2] && lower.includes(keyword)) {
      return renderAgentText(match[2].trim(), context);
    }
  }
  return null;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
