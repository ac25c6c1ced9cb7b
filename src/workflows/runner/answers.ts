/**
 * What a held caller is answered with: for a responseNode call (docs/webhooks.md#respond-node) the
 * reply of the respond node that answered, read from the execution's node runs, live in the
 * executor or from the stored record after a restart or through a result handle; once the
 * execution finished, how it ended.
 */
import { finalOutput } from "../engine/engine";
import { redactSecrets } from "../engine/redact";
import { answeredReply } from "../engine/respond";
import type { ExecutionState, NodeRun } from "../nodes/types";
import type { Settled } from "./contract";

/**
 * The `responded` outcome of an execution whose respond node answered, or undefined when none did
 * (yet). Secret values in the reply are redacted as in the record, so the live answer and the
 * one read back later are the same.
 * @param redact secret values prepared by `secretsForRedaction`; [] for runs already redacted
 */
export function respondedOutcome(
  executionId: string,
  runs: NodeRun[],
  redact: string[],
): Extract<Settled, { kind: "responded" }> | undefined {
  const reply = answeredReply(runs);
  if (!reply) return undefined;
  return { kind: "responded", executionId, reply: redactSecrets(reply, redact) };
}

/**
 * How a finished execution answers its held callers: a respond node's reply stays the answer even
 * if a later node failed (the caller had it); else the final node's output, or the failed node.
 * @param redact secret values prepared by `secretsForRedaction`
 */
export function finishedOutcome(
  executionId: string,
  state: ExecutionState,
  redact: string[],
): Settled {
  return (
    respondedOutcome(executionId, state.runs, redact) ??
    (state.status === "succeeded"
      ? { kind: "succeeded", executionId, output: finalOutput(state) }
      : { kind: "failed", executionId, nodeKey: state.failedNodeKey })
  );
}
