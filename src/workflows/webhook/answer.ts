/**
 * How a received webhook call is answered (docs/api/webhooks.md#responses): the headers it carries
 * and its JSON, its node's reply, or its error. One shaping for the app's route
 * (`src/workflows/webhook/routes.ts`) and the Worker entry's direct path (`./direct.ts`), so the two
 * cannot drift apart.
 */
import { ApiError } from "../../platform/errors";
import { appUrl } from "../../platform/origins";
import type { WebhookOutcome } from "../runner/contract";
import { encodeReply, type Reply } from "./http-answer";
import { refused } from "./refusals";

/**
 * Every answer of a webhook URL, errors included: replies are the workflow's, served on the
 * dashboard's origin, and may never run script there (docs/security.md#webhook-replies).
 */
export const SANDBOX_HEADER = { name: "content-security-policy", value: "sandbox" } as const;

/**
 * A call's answer: `headers`, set in this order before the answer or its error; then either a JSON
 * value with its status, a reply's status, headers and text (set after `headers`), or the error.
 */
export type WebhookAnswer = { headers: Record<string, string> } & (
  | { status: 200 | 202; json: unknown }
  | { reply: ReturnType<typeof encodeReply> }
  | { error: ApiError }
);

/** 500 workflow_failed of a lastNode or responseNode execution, naming it and its failed node. */
export function workflowFailed(executionId: string, nodeKey: string | null): ApiError {
  return new ApiError(500, "workflow_failed", `The workflow failed at node "${nodeKey}".`, {
    details: [{ executionId, node: nodeKey }],
    executionId,
  });
}

/**
 * The answer to a call the runners answered with `received` (docs/api/webhooks.md#responses).
 * @param url the request's URL: a timeout's result URL is on its origin (or APP_URL)
 */
export function webhookAnswer(
  received: WebhookOutcome,
  env: Parameters<typeof appUrl>[0],
  url: string,
): WebhookAnswer {
  const headers: Record<string, string> = {};
  // A repeated delivery gets the first call's answer (docs/webhooks.md#deduplication).
  if (received.kind === "deduplicated") headers["x-deduplicated"] = "true";
  const outcome = received.kind === "deduplicated" ? received.first : received;
  if ("executionId" in outcome) headers["x-execution-id"] = outcome.executionId;
  const reply = (reply: Reply) => ({ headers, reply: encodeReply(reply) });
  switch (outcome.kind) {
    case "invalid_signature":
      // Why is logged by the runner, never told: it would help whoever forged the call.
      return {
        headers,
        error: new ApiError(401, "invalid_signature", "The request's signature did not verify."),
      };
    case "accepted":
      if (outcome.queued) headers["x-execution-status"] = "queued";
      if (outcome.debounced) headers["x-debounced"] = "true";
      return outcome.reply
        ? reply(outcome.reply)
        : { headers, status: 200, json: { success: true, executionId: outcome.executionId } };
    case "succeeded":
      return { headers, status: 200, json: outcome.output ?? null };
    case "responded":
    case "handshake":
      return reply(outcome.reply);
    case "failed":
      return { headers, error: workflowFailed(outcome.executionId, outcome.nodeKey) };
    case "timeout": {
      const { executionId, resultToken } = outcome;
      const resultUrl = `${appUrl(env, url)}/webhooks/results/${executionId}`;
      const error = new ApiError(
        504,
        "workflow_timeout",
        "The workflow did not finish in time; it goes on and is recorded.",
        {
          details: [{ executionId }],
          executionId,
          ...(resultToken ? { resultUrl, resultToken, headers: { location: resultUrl } } : {}),
        },
      );
      return { headers, error };
    }
    case "not_found":
    case "method_not_allowed":
    case "bad_body":
    case "queue_full":
    case "handshake_refused":
      return { headers, error: refused(outcome) };
    case "rate_limited": {
      const message = `More than ${outcome.limit} requests per minute to this webhook.`;
      const retryAfter = { "retry-after": String(outcome.retryAfterSeconds) };
      return {
        headers,
        error: new ApiError(429, "rate_limited", message, { headers: retryAfter }),
      };
    }
  }
}
