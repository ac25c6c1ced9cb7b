/**
 * The engine's side of the nodes that reach the person (docs/workflows.md): each resolves its
 * templates into an action the runner performs (`act` step); ask_person then waits, like `wait`,
 * for the answer, the timeout or the link's end. Pure, like the engine.
 */
import type { JsonValue } from "../../platform/json";
import type {
  ActionResult,
  ExecutionState,
  NodeAction,
  Step,
  WorkflowDefinition,
  WorkflowNode,
} from "../nodes/types";
import { currentRun, fail, nodeByKey, openRun, succeed } from "./runs";
import { resolveValue, type TemplateScope } from "./template";

/** The types whose node is an action (an `act` step). */
export const ACTION_TYPES = ["create_link", "send_message", "ask_person", "end_conversation"];

type ActionNode = Extract<WorkflowNode, { type: NodeAction["type"] }>;

const text = (value: JsonValue): string =>
  typeof value === "string" ? value : value === null ? "" : JSON.stringify(value);

/** The node's action, its templates resolved; shapes are checked as the API's when performed. */
function actionOf(node: ActionNode, scope: TemplateScope): NodeAction {
  const resolve = (value: unknown) => resolveValue(value as JsonValue, scope);
  switch (node.type) {
    case "create_link": {
      const link: Record<string, JsonValue> = {};
      for (const field of ["flowId", "channelId", "parameters", "participant"] as const) {
        if (node[field] !== undefined) link[field] = resolve(node[field]);
      }
      for (const field of ["globalTask", "metadata", "expiresInSeconds"] as const) {
        if (node[field] !== undefined) link[field] = resolve(node[field]);
      }
      return { type: "create_link", link };
    }
    case "send_message":
      return {
        type: "send_message",
        linkId: text(resolve(node.linkId)),
        text: text(resolve(node.text)),
      };
    case "ask_person":
      return {
        type: "ask_person",
        linkId: text(resolve(node.linkId)),
        question: text(resolve(node.question)),
        options: node.options ?? [],
        allowText: node.allowText ?? (node.options ?? []).length === 0,
      };
    case "end_conversation": {
      const reason = node.reason === undefined ? null : text(resolve(node.reason));
      return { type: "end_conversation", linkId: text(resolve(node.linkId)), reason };
    }
  }
}

/**
 * The step of a person node: its action, again while one is unfinished (a restart), the wait
 * of an ask_person whose question was asked, or the closing of its question once timed out.
 */
export function personStep(
  state: ExecutionState,
  node: ActionNode,
  scope: TemplateScope,
  now: number,
): Step {
  const run = state.runs.find((candidate) => candidate.key === node.key);
  if (run?.status === "waiting") {
    return { kind: "wait", nodeKey: node.key, until: state.waitUntil ?? now };
  }
  const sessionId = state.asked?.[node.key];
  if (state.closing === node.key && sessionId) {
    return { kind: "act", nodeKey: node.key, action: { type: "close_question", sessionId } };
  }
  openRun(state, node, "running", now);
  return { kind: "act", nodeKey: node.key, action: actionOf(node, scope) };
}

/**
 * Hands the pending action its result: a refusal fails the node (with the API's code and details);
 * an ask_person then waits `timeoutSeconds`; any other succeeds with the output. No-op with no
 * action pending. Call `advance` next.
 */
export function completeAction(
  definition: WorkflowDefinition,
  state: ExecutionState,
  result: ActionResult,
  now: number,
): void {
  const run = currentRun(state, "running");
  if (!run || !ACTION_TYPES.includes(run.type)) return;
  const node = nodeByKey(definition, run.key);
  if (state.closing === run.key) {
    // Best effort: a question that could not be closed (its chat gone) holds nothing up.
    goOnTimedOut(definition, state, node, now);
    return;
  }
  if (!result.ok) {
    const refusal = {
      ...(result.code ? { errorCode: result.code } : {}),
      ...(result.details ? { errorDetails: result.details } : {}),
    };
    fail(state, node, result.error, now, refusal);
    return;
  }
  if (node.type === "ask_person") {
    run.status = "waiting";
    state.waitUntil = now + node.timeoutSeconds * 1000;
    const output = result.output as { sessionId?: unknown } | null;
    // Where the question is, so its timeout can close it there (`close_question`).
    if (typeof output?.sessionId === "string") {
      state.asked = { ...state.asked, [node.key]: output.sessionId };
    }
    return;
  }
  succeed(definition, state, node, result.output, now);
}

/** The ask_person run waiting at `nodeKey`, or undefined. */
function waitingQuestion(definition: WorkflowDefinition, state: ExecutionState, nodeKey: string) {
  const run = currentRun(state, "waiting");
  if (run?.key !== nodeKey || run.type !== "ask_person") return undefined;
  return nodeByKey(definition, nodeKey);
}

/**
 * Whether the ask_person at `nodeKey` is still asking: its action not settled (posted, perhaps,
 * but the runner restarted before saving it waiting; the alarm repeats it). An answer or closing
 * that comes meanwhile must be sent again, not dropped (docs/workflows.md#ask-person). A question
 * being closed after its timeout is not asking: its outcome is decided.
 */
export function stillAsking(state: ExecutionState, nodeKey: string): boolean {
  const run = currentRun(state, "running");
  return run?.key === nodeKey && run.type === "ask_person" && state.closing !== nodeKey;
}

/**
 * The person answered the question of the ask_person waiting at `nodeKey`: it succeeds on branch
 * `answered` with `{answer, answeredAt}` (ISO 8601); true. False, unchanged, when no such node waits.
 */
export function answerQuestion(
  definition: WorkflowDefinition,
  state: ExecutionState,
  answer: { nodeKey: string; answer: string; answeredAt: number },
  now: number,
): boolean {
  const node = waitingQuestion(definition, state, answer.nodeKey);
  if (!node) return false;
  state.waitUntil = null;
  const output = { answer: answer.answer, answeredAt: new Date(answer.answeredAt).toISOString() };
  succeed(definition, state, node, output, now, "answered");
  return true;
}

/**
 * The question of the ask_person waiting at `nodeKey` timed out, or its link ended: it succeeds on
 * branch `timeout` with `{timedOut: true}`; true. False, unchanged, when no such node waits.
 * With `close` (its own timeout passed) and the question's session known, the node first closes
 * the question in the chat: the next step is a `close_question` action (docs/workflows.md#ask-person).
 */
export function timeOutQuestion(
  definition: WorkflowDefinition,
  state: ExecutionState,
  nodeKey: string,
  now: number,
  close = false,
): boolean {
  const node = waitingQuestion(definition, state, nodeKey);
  if (!node) return false;
  state.waitUntil = null;
  if (close && state.asked?.[nodeKey]) {
    const run = currentRun(state, "waiting");
    if (run) run.status = "running";
    state.closing = nodeKey;
    return true;
  }
  goOnTimedOut(definition, state, node, now);
  return true;
}

/** The ask_person succeeds on branch `timeout`; its session and closing are forgotten. */
function goOnTimedOut(
  definition: WorkflowDefinition,
  state: ExecutionState,
  node: WorkflowNode,
  now: number,
): void {
  if (state.asked) {
    const { [node.key]: _asked, ...rest } = state.asked;
    state.asked = Object.keys(rest).length > 0 ? rest : undefined;
  }
  if (state.closing === node.key) state.closing = undefined;
  succeed(definition, state, node, { timedOut: true }, now, "timeout");
}
