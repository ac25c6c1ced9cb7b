/**
 * Test helpers for what workflows write into a conversation (docs/chat.md#questions): a workflow
 * message as send_message and ask_person send it, the facts of a first open, and a test double of
 * the runner shards a conversation tells about its questions, installed in one object only.
 */
import { runInDurableObject } from "cloudflare:test";
import type { env } from "cloudflare:workers";
import type { AgentBrain, HistoryMessage } from "../../src/conversations/brains";
import type {
  ConversationContract,
  ConversationFacts,
  WorkflowMessage,
} from "../../src/conversations/conversation/contract";
import type { Workspace } from "./api";

let counter = 0;

/** A message of `text` with a fresh id (as a node derives one), asking `question` when given. */
export function workflowMessage(
  text: string,
  question?: { options?: { label: string; value: string }[]; allowText?: boolean },
): WorkflowMessage {
  counter += 1;
  const id = `${Date.now().toString(16)}${counter.toString(16).padStart(8, "0")}`.slice(-24);
  return {
    id: `msg_${id}`,
    text,
    ...(question
      ? {
          question: {
            id: `qst_${id}`,
            options: question.options ?? [],
            allowText: question.allowText ?? false,
            asker: { workflowId: "wfl_asker", shard: 1, executionId: `exe_${id}`, nodeKey: "ask" },
          },
        }
      : {}),
  };
}

/** Two options, as "Update your card now?" offers them. */
export const YES_NO = [
  { label: "Yes, update it", value: "yes" },
  { label: "Not now", value: "no" },
];

/** What the first open of a link of `ws` tells its conversation (an initiator with a greeting). */
export function firstOpenFacts(ws: Workspace, sessionId: string, now: number): ConversationFacts {
  return {
    sessionId,
    linkId: `lnk_${sessionId}`,
    workspaceId: ws.workspaceId,
    flowId: ws.agentId,
    channelId: "chn_test",
    agent: { name: "Onboarding", instructions: null, model: null },
    agentMode: "initiator",
    greeting: "Hi {{participant.name}}!",
    participant: { name: "Ada" },
    participantExternalId: null,
    parameters: {},
    globalTask: null,
    startedAt: now,
    expiresAt: now + 3_600_000,
  };
}

/** One call a conversation made to a runner shard (the shard's object name and the argument). */
export type RunnerCall = {
  method: "answerQuestion" | "closeQuestion";
  shard: string;
  arg: unknown;
};

/** The runner double's record; `failures` makes that many next calls throw (unreachable). */
export type RunnerDouble = { calls: RunnerCall[]; failures: number };

/**
 * Installs a runner double as the `WORKFLOW_RUNNER` binding of the outbox of `stub`'s object only
 * (other objects keep the real runners); it lasts until the object is evicted.
 */
export async function installRunnerDouble(
  stub: DurableObjectStub<ConversationContract>,
): Promise<RunnerDouble> {
  const double: RunnerDouble = { calls: [], failures: 0 };
  const record = (method: RunnerCall["method"], shard: string) => async (arg: unknown) => {
    if (double.failures > 0) {
      double.failures -= 1;
      throw new Error("runner unreachable");
    }
    double.calls.push({ method, shard, arg });
  };
  const namespace = {
    idFromName: (name: string) => ({ name }),
    get: ({ name }: { name: string }) => ({
      answerQuestion: record("answerQuestion", name),
      closeQuestion: record("closeQuestion", name),
    }),
  };
  await runInDurableObject(stub, (instance) => {
    const outbox = (instance as unknown as { outbox: { env: typeof env } }).outbox;
    outbox.env = Object.assign(Object.create(outbox.env), { WORKFLOW_RUNNER: namespace });
  });
  return double;
}

/** Replaces the brain of `stub`'s object with one that records each history it is given. */
export async function installRecordingBrain(
  stub: DurableObjectStub<ConversationContract>,
): Promise<HistoryMessage[][]> {
  const histories: HistoryMessage[][] = [];
  const brain: AgentBrain = {
    kind: "scripted",
    async reply(_context, history) {
      histories.push(history.map(({ role, text }) => ({ role, text })));
      return { text: "Noted.", end: false };
    },
    analyze: async () => ({}),
  };
  await runInDurableObject(stub, (instance) => {
    (instance as unknown as { replies: { brain: AgentBrain } }).replies.brain = brain;
  });
  return histories;
}

/** Waits (bounded) until `check` passes; the outbox delivers in the background. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
