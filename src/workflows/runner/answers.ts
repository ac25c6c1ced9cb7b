/** A held caller's answer: the respond node's reply (docs/webhooks.md#respond-node), or the end. */
import { finalOutput } from "../engine/engine";
import { redactSecrets } from "../engine/redact";
import { answeredReply } from "../engine/respond";
import type { ExecutionState, NodeRun } from "../nodes/types";
import type { Settled } from "./contract";

/**
 * The `responded` outcome once a respond node answered, else undefined; redacted as the record is,
 * so the live answer equals the one read back later.
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
 * How a finished execution answers: a respond node's reply (even if a later node failed), else
 * the final output or the failed node.
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
