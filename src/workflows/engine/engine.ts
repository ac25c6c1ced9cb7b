/**
 * The execution step machine (docs/api/webhooks.md). Pure: the runner owns time, storage, fetch and
 * alarms and passes `now` (epoch ms); `state` stays plain JSON, stored after each call and resumed.
 */
import type { JsonValue } from "../../platform/json";
import { isTriggerNode } from "../nodes/models";
import type {
  ExecutionState,
  FetchResponse,
  NodeRun,
  Step,
  WorkflowDefinition,
  WorkflowNode,
} from "../nodes/types";
import { evaluateCondition } from "./condition";
import { executionOrder } from "./graph";
import { buildRequest } from "./http-request";
import { personStep, timeOutQuestion } from "./person";
import { answersCall, renderRespond } from "./respond";
import { retryLater } from "./retry";
import { currentRun, fail, nodeByKey, openRun, succeed } from "./runs";
import { resolveValue, type TemplateScope } from "./template";

/**
 * Starts an execution by trigger `triggerKey` with its output, recorded as succeeded; call `advance`
 * next. `executionId` is `{{$execution.id}}` for respond nodes. @throws Error for a non-trigger key
 */
export function startExecution(
  definition: WorkflowDefinition,
  triggerKey: string,
  triggerOutput: JsonValue,
  now: number,
  executionId?: string,
): ExecutionState {
  const trigger = definition.nodes.find((node) => node.key === triggerKey);
  if (!trigger || !isTriggerNode(trigger)) {
    throw new Error(`"${triggerKey}" is not a trigger node of this workflow.`);
  }
  const state: ExecutionState = {
    triggerKey,
    status: "running",
    order: executionOrder(definition, triggerKey),
    position: 0,
    active: [triggerKey],
    outputs: {},
    runs: [
      { key: triggerKey, type: trigger.type, status: "running", startedAt: now, finishedAt: null },
    ],
    lastNodeKey: null,
    failedNodeKey: null,
    waitUntil: null,
  };
  if (executionId !== undefined) state.executionId = executionId;
  succeed(definition, state, trigger, triggerOutput, now);
  return state;
}

/** Runs one active node; returns the step to hand the runner, or undefined to go on to the next. */
function runNode(
  definition: WorkflowDefinition,
  state: ExecutionState,
  node: WorkflowNode,
  scope: TemplateScope,
  now: number,
): Step | undefined {
  switch (node.type) {
    case "webhook":
    case "conversation_event":
      // Triggers have no inputs, so only the starting one is ever active.
      return fail(state, node, "A trigger node cannot run inside an execution.", now);
    case "condition": {
      const left = resolveValue(node.left, scope);
      const right = resolveValue(node.right, scope);
      const result = evaluateCondition(node.operator, left, right);
      succeed(definition, state, node, { result }, now, result ? "true" : "false");
      return undefined;
    }
    case "set":
      succeed(definition, state, node, resolveValue(node.fields, scope), now);
      return undefined;
    case "http_request": {
      // Between two attempts the node waits for its retry (see `completeWait`).
      const pending = state.runs.find((run) => run.key === node.key);
      if (pending?.status === "waiting") {
        return { kind: "wait", nodeKey: node.key, until: state.waitUntil ?? now };
      }
      const request = buildRequest(node, scope);
      if (typeof request === "string") return fail(state, node, request, now);
      openRun(state, node, "running", now);
      return { kind: "fetch", nodeKey: node.key, request };
    }
    case "respond": {
      // Synchronous: the runner answers the call once the stretch in which it ran is saved.
      const reply = renderRespond(node, state);
      if (answersCall(definition, state)) openRun(state, node, "running", now).answered = true;
      succeed(definition, state, node, reply, now);
      return undefined;
    }
    case "wait": {
      const pending = state.runs.find((run) => run.key === node.key);
      if (pending) return { kind: "wait", nodeKey: node.key, until: state.waitUntil ?? now };
      if (node.seconds === 0) {
        succeed(definition, state, node, { waitedSeconds: 0 }, now);
        return undefined;
      }
      openRun(state, node, "waiting", now);
      state.waitUntil = now + node.seconds * 1000;
      return { kind: "wait", nodeKey: node.key, until: state.waitUntil };
    }
    case "create_link":
    case "send_message":
    case "ask_person":
    case "end_conversation":
      return personStep(state, node, scope, now);
  }
}

/**
 * Runs nodes from `state.position` until one needs a fetch or a wait, or the execution ends; skips
 * nodes on branches not taken. A pending step is returned again without a second run.
 */
export function advance(
  definition: WorkflowDefinition,
  state: ExecutionState,
  secrets: Record<string, string>,
  now: number,
): Step {
  const scope: TemplateScope = { outputs: state.outputs, secrets };
  while (state.status === "running") {
    const key = state.order[state.position];
    if (key === undefined) {
      state.status = "succeeded";
      break;
    }
    if (!state.active.includes(key)) {
      state.position++;
      continue;
    }
    const node = nodeByKey(definition, key);
    let step: Step | undefined;
    try {
      step = runNode(definition, state, node, scope, now);
    } catch (error) {
      // Resolution does not throw on JSON data; this keeps a surprise from wedging the execution.
      const reason = error instanceof Error ? error.message : "unknown error";
      step = fail(state, node, `The node could not run: ${reason}`, now);
    }
    if (step) return step;
  }
  return { kind: "finished", status: state.status === "failed" ? "failed" : "succeeded" };
}

/**
 * Hands the pending http_request its response (`{status, headers, body}`); non-2xx fails it unless
 * `neverError`, or parks it for a `retry`. No-op with no fetch pending. Call `advance` next.
 */
export function completeFetch(
  definition: WorkflowDefinition,
  state: ExecutionState,
  response: FetchResponse,
  now: number,
  random = Math.random,
): void {
  const run = currentRun(state, "running");
  if (run?.type !== "http_request") return;
  const node = nodeByKey(definition, run.key);
  if (node.type !== "http_request") return;
  if ((response.status < 200 || response.status > 299) && !node.neverError) {
    const error = `HTTP ${response.status} from the server.`;
    if (!retryLater(state, node, run, { status: response.status, error }, now, random)) {
      fail(state, node, error, now);
    }
    return;
  }
  const output = { status: response.status, headers: response.headers, body: response.body };
  succeed(definition, state, node, output, now);
}

/**
 * Fails the pending http_request with `message`, or parks it for a `retry`; with `code` (refused
 * destination, docs/security.md#outbound-requests) it fails at once: a retry would be refused too.
 */
export function failFetch(
  definition: WorkflowDefinition,
  state: ExecutionState,
  message: string,
  now: number,
  random = Math.random,
  code?: NodeRun["errorCode"],
): void {
  const run = currentRun(state, "running");
  if (run?.type !== "http_request") return;
  const node = nodeByKey(definition, run.key);
  if (
    !code &&
    node.type === "http_request" &&
    retryLater(state, node, run, { status: null, error: message }, now, random)
  ) {
    return;
  }
  Object.assign(
    run,
    { status: "failed", error: message, finishedAt: now },
    code && { errorCode: code },
  );
  state.status = "failed";
  state.failedNodeKey = run.key;
}

/** Ends the pending wait when `now >= waitUntil` (`{waitedSeconds}`), true; else false, unchanged. */
export function completeWait(
  definition: WorkflowDefinition,
  state: ExecutionState,
  now: number,
): boolean {
  const run = currentRun(state, "waiting");
  if (!run || state.waitUntil === null || now < state.waitUntil) return false;
  const node = nodeByKey(definition, run.key);
  if (node.type === "http_request") {
    // A retry's wait ended: the node fetches again when `advance` runs it.
    run.status = "running";
    state.waitUntil = null;
    return true;
  }
  if (node.type === "ask_person") return timeOutQuestion(definition, state, node.key, now, true);
  if (node.type !== "wait") return false;
  state.waitUntil = null;
  succeed(definition, state, node, { waitedSeconds: node.seconds }, now);
  return true;
}

/** The execution's result: the output of the last node that succeeded, or null. */
export function finalOutput(state: ExecutionState): JsonValue {
  const key = state.lastNodeKey;
  return key !== null && Object.hasOwn(state.outputs, key) ? (state.outputs[key] ?? null) : null;
}
