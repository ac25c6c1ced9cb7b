/**
 * The outside-world steps an execution takes (docs/api/webhooks.md#durability): a fetch of an
 * http_request node, or a person node's action (docs/workflows.md). Each is started only once the
 * state leading to it is saved with a wake time; past it, the alarm takes the step over and it is
 * taken again (a fetch re-sent, an action repeated: idempotent by execution and node).
 */
import type { OutboundPolicy } from "../../platform/outbound";
import { completeFetch, failFetch } from "../engine/engine";
import { completeAction } from "../engine/person";
import { secretsForRedaction } from "../engine/redact";
import type { ActionResult, ExecutionState, Step } from "../nodes/types";
import type { LiveExecution, Wake } from "./execution-row";
import { fetchFailure, performFetch } from "./outbound-fetch";
import { type Act, prepareAction } from "./person-actions";

/** Readies an action before its state is saved: a create_link's token (person-actions.ts). */
export const prepareAct = (state: ExecutionState, step: Extract<Step, { kind: "act" }>) =>
  prepareAction(state, step.nodeKey, step.action);

/** How long past its timeout a fetch may be silent before the alarm takes it over (ms). */
const FETCH_LEASE_MS = 30_000;
/** How long an action may be silent before the alarm takes it over (ms). */
const ACT_LEASE_MS = 60_000;

type Outward = Extract<Step, { kind: "fetch" | "act" | "wait" }>;

/** What the execution waits for while `step` is under way, and when the alarm looks again. */
export function wakeOf(step: Outward, now: number): Wake {
  if (step.kind === "wait") return { step: "wait", at: step.until };
  const lease = step.kind === "fetch" ? step.request.timeoutMs + FETCH_LEASE_MS : ACT_LEASE_MS;
  return { step: "fetch", at: now + lease };
}

/** Takes a fetch or an action and hands its outcome to the engine; call `advance` next. */
export async function takeStep(
  execution: LiveExecution,
  step: Extract<Step, { kind: "fetch" | "act" }>,
  policy: OutboundPolicy,
  act: Act,
): Promise<void> {
  const { definition, state } = execution;
  if (step.kind === "act") {
    let result: ActionResult;
    try {
      result = await act(execution, step);
    } catch (error) {
      // A fault, not a refusal (a binding that did not answer): the node fails with its message.
      const reason = error instanceof Error ? error.message : "unknown error";
      result = { ok: false, error: `The action could not be performed: ${reason}` };
    }
    completeAction(definition, state, result, Date.now());
    return;
  }
  try {
    const response = await performFetch(step.request, policy);
    completeFetch(definition, state, response, Date.now());
  } catch (error) {
    const { message, code } = fetchFailure(error);
    failFetch(definition, state, message, Date.now(), undefined, code);
  }
}

/**
 * The values hidden wherever the execution is shown: the workspace's secrets (prepared by
 * `secretsForRedaction`) and the tokens of the links it created (docs/workflows.md#create-link).
 */
export function shownRedaction(prepared: string[], state: ExecutionState): string[] {
  const tokens = Object.values(state.tokens ?? {});
  return tokens.length === 0 ? prepared : secretsForRedaction([...prepared, ...tokens]);
}
