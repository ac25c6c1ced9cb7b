/**
 * What a responseNode caller is answered with (docs/webhooks.md#respond-node): the reply of the
 * respond node that answered, read from the execution's node runs, live in the executor or from
 * the stored record after a restart or through a result handle.
 */
import { redactSecrets } from "../../workflow/redact";
import { answeredReply } from "../../workflow/respond";
import type { NodeRun } from "../../workflow/types";
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
