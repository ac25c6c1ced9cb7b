/** Retries of http_request nodes (docs/api/webhooks.md#http-request-node): which failures, how long. */
import type { ExecutionState, HttpRequestNode, HttpRetry, NodeRun } from "../nodes/types";

/** Whether this failure may be tried again: no answer always; a status when listed (default 429, 5xx). */
export function retriable(retry: HttpRetry, status: number | null): boolean {
  if (status === null) return true;
  return retry.on ? retry.on.includes(status) : status === 429 || (status >= 500 && status <= 599);
}

/**
 * Records a failed attempt on the run and says how long to wait before the next one.
 * @returns the wait (ms), or null when no attempt is left or the failure is not retried
 */
export function nextAttempt(
  retry: HttpRetry,
  run: NodeRun,
  failure: { status: number | null; error: string },
  now: number,
  random: () => number,
): number | null {
  const attempts = run.attempts ?? [];
  attempts.push({ at: now, status: failure.status, error: failure.error });
  run.attempts = attempts;
  if (attempts.length >= retry.maxAttempts || !retriable(retry, failure.status)) return null;
  const base = retry.backoffSeconds * 1000 * 2 ** (attempts.length - 1);
  return Math.round(base * (0.8 + random() * 0.4));
}

/** With an attempt left, records it, parks the run until `state.waitUntil` and returns true. */
export function retryLater(
  state: ExecutionState,
  node: HttpRequestNode,
  run: NodeRun,
  failure: { status: number | null; error: string },
  now: number,
  random: () => number,
): boolean {
  if (!node.retry) return false;
  const wait = nextAttempt(node.retry, run, failure, now, random);
  if (wait === null) return false;
  run.status = "waiting";
  state.waitUntil = now + wait;
  return true;
}
