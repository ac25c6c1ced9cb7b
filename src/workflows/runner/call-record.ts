/**
 * A webhook call's entry in the request log and the runner's counters
 * (docs/webhooks.md#request-log, docs/operations.md#metrics): its outcome, status, latency,
 * redacted headers, the reason of a refusal and the secret that verified it.
 */
import { DAY_MS } from "../../db/retention";
import { redactPrepared } from "../engine/redact";
import type { WebhookNode } from "../nodes/types";
import type { RunnerConfig } from "./config";
import type { WebhookCall, WebhookOutcome } from "./contract";
import { redactHeaders } from "./credential-headers";
import type { RunnerMetrics } from "./metrics-store";
import { loggedOutcome, statusOf } from "./outcome-status";
import type { RequestLog } from "./request-log";
import type { RequestOutcome } from "./request-log-entry";
import type { WorkflowSource } from "./workflow-source";

/** Outcomes a sender can repeat without limit: the log keeps their body's preview only. */
const FLOODS = new Set(["rate_limited", "method_not_allowed", "not_found", "queue_full"]);

/** How the call was answered, and what only the log is told. */
export type CallShown = {
  outcome: WebhookOutcome;
  /** Why it was refused (a signature's reason is never answered). */
  reason: string | null;
  /** It waits for a slot or a throttle (docs/webhooks.md#flow-control). */
  queued?: boolean;
  /** The outcome to log when it is not the answer's own (`debounced`, `batched`, `handshake`). */
  logged?: RequestOutcome;
  /** The name of the secret that verified it (docs/webhooks.md#rotation). */
  verifiedWith?: string;
  /** When the node's rate limit counted it, for the entry to keep (see `NodeRateLimits.take`). */
  rateAt?: number;
};

/** Adds the call to the request log and counts it in the runner's metrics. */
export async function recordCall(
  parts: { source: WorkflowSource; requests: RequestLog; metrics: RunnerMetrics },
  config: RunnerConfig,
  node: WebhookNode,
  call: WebhookCall,
  here: number,
  { outcome, reason, queued, logged: told, verifiedWith, rateAt }: CallShown,
): Promise<void> {
  const secrets = await parts.source.secretValues(config.workspaceId);
  const answered = outcome.kind === "deduplicated" ? outcome.first : outcome;
  parts.requests.setMaxAge(config.retention.requestLogDays * DAY_MS);
  const logged = told ?? (queued ? "queued" : loggedOutcome(outcome));
  const latencyMs = Math.max(0, Date.now() - call.receivedAt);
  parts.metrics.call(logged, latencyMs);
  parts.requests.record(
    {
      requestId: call.requestId,
      receivedAt: call.receivedAt,
      nodeKey: node.key,
      method: call.method,
      status: statusOf(answered),
      outcome: logged,
      executionId: "executionId" in answered ? answered.executionId : null,
      latencyMs,
      size: call.size,
      headers: redactPrepared(redactHeaders(call.headers, node.verify?.header), secrets.redact),
      reason,
      ...(verifiedWith ? { verifiedWith } : {}),
      body: call.body,
      // Refusals that come in floods keep their preview only (docs/webhooks.md#request-log).
      keepBody: !FLOODS.has(answered.kind),
      ...(rateAt !== undefined ? { rateAt } : {}),
    },
    secrets.redact,
    here,
  );
}
