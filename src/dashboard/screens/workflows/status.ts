/**
 * How the workflow screens name and colour statuses (docs/dashboard.md#screens): a workflow's
 * running/stopped, an execution's queued/running/succeeded/failed, and the request log's
 * outcomes (docs/webhooks.md#request-log).
 */
import type { Schemas } from "../../api";
import type { Tone } from "../../ui/data";

export type Outcome = Schemas["LoggedRequest"]["outcome"];

/** Every outcome with its label; a `Record`, so a new outcome in the API fails the typecheck. */
export const OUTCOMES: Record<Outcome, string> = {
  accepted: "Accepted",
  deduplicated: "Deduplicated",
  queued: "Queued",
  debounced: "Debounced",
  batched: "Batched",
  invalid_signature: "Invalid signature",
  rate_limited: "Rate limited",
  method_not_allowed: "Method not allowed",
  payload_too_large: "Payload too large",
  invalid_body: "Invalid body",
  stopped: "Workflow stopped",
  queue_full: "Queue full",
  handshake: "Handshake",
  handshake_refused: "Handshake refused",
};

/** Outcomes that ran (or will run) the workflow, or answered a sender's handshake; others are refusals. */
const RAN: ReadonlySet<Outcome> = new Set([
  "accepted",
  "deduplicated",
  "queued",
  "debounced",
  "batched",
  "handshake",
]);

/** A request log outcome's badge colour: refusals are bad (a refused handshake too), queued is under way. */
export function outcomeTone(outcome: Outcome, status = 200): Tone {
  if (!RAN.has(outcome) || status >= 400) return "bad";
  return outcome === "queued" ? "busy" : "ok";
}

/**
 * Whether the caller's own answer said a refusal's `reason` (docs/webhooks.md#request-log): a
 * refused body's reason is the answer's `message`; a signature's reason never leaves the log,
 * since it would help whoever forged the call.
 */
export function reasonToldToCaller(outcome: Outcome): boolean {
  // A refused handshake's answer says only that it was refused (docs/webhooks.md#handshakes).
  return outcome !== "invalid_signature" && outcome !== "handshake_refused";
}

/** An execution's (or a node run's) badge colour. */
export function runTone(
  status: Schemas["Execution"]["status"] | Schemas["NodeRun"]["status"],
): Tone {
  if (status === "succeeded") return "ok";
  if (status === "failed") return "bad";
  return "busy";
}

/** The editor, executions and request log of workflow `id`, and one execution: the screens' paths. */
export const workflowPaths = (id: string) => ({
  editor: `/app/workflows/${encodeURIComponent(id)}/editor`,
  executions: `/app/workflows/${encodeURIComponent(id)}`,
  requests: `/app/workflows/${encodeURIComponent(id)}/requests`,
  execution: (executionId: string) =>
    `/app/workflows/${encodeURIComponent(id)}/executions/${encodeURIComponent(executionId)}`,
});
