/**
 * The one answer for a workflow whose execution queue is full (docs/webhooks.md#concurrency):
 * for webhook calls, test URL calls, replays and test runs alike. A module of its own, so the
 * webhook receiver loads nothing of the executions' management API.
 */
import { ApiError } from "../../platform/errors";
import { QUEUE_FULL_RETRY_SECONDS } from "../runner/slots";

/** 429 queue_full, with `retry-after: retryAfterSeconds` (default the runner's 5 s). */
export const queueFull = (retryAfterSeconds = QUEUE_FULL_RETRY_SECONDS): ApiError =>
  new ApiError(429, "queue_full", "The workflow's execution queue is full.", {
    headers: { "retry-after": String(retryAfterSeconds) },
  });
