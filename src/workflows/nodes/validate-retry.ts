/**
 * The `retry` setting of an http_request node (docs/api/webhooks.md#http-request-node): how many
 * attempts, the first wait, and which statuses are retried. Every problem is reported.
 */
import type { HttpRetry, ReportProblem } from "./types";

/** The fields of `retry`. */
export const RETRY_FIELDS = ["maxAttempts", "backoffSeconds", "on"];
/** Limits of `retry`: attempts in all, the first wait (s) and its default, the statuses in `on`. */
export const RETRY_LIMITS = {
  maxAttempts: { min: 1, max: 10 },
  backoffSeconds: { min: 0.1, max: 3_600, fallback: 1 },
  on: { min: 300, max: 599 },
} as const;

/** Reads `retry`, reporting under `retry.<field>`; undefined when it is too broken to keep. */
export function readRetry(raw: unknown, report: ReportProblem): HttpRetry | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    report("retry", "invalid_type", "retry must be an object.");
    return undefined;
  }
  const settings = raw as Record<string, unknown>;
  for (const field of Object.keys(settings)) {
    if (!RETRY_FIELDS.includes(field))
      report(`retry.${field}`, "unknown_field", "Unknown setting.");
  }
  const { maxAttempts, backoffSeconds = RETRY_LIMITS.backoffSeconds.fallback, on } = settings;
  const { maxAttempts: attempts, backoffSeconds: backoff, on: statuses } = RETRY_LIMITS;
  let ok = true;
  if (
    typeof maxAttempts !== "number" ||
    !Number.isInteger(maxAttempts) ||
    maxAttempts < attempts.min ||
    maxAttempts > attempts.max
  ) {
    const range = `${attempts.min} to ${attempts.max}`;
    report("retry.maxAttempts", "out_of_range", `maxAttempts must be an integer from ${range}.`);
    ok = false;
  }
  if (
    typeof backoffSeconds !== "number" ||
    backoffSeconds < backoff.min ||
    backoffSeconds > backoff.max
  ) {
    const range = `${backoff.min} to ${backoff.max}`;
    report("retry.backoffSeconds", "out_of_range", `backoffSeconds must be from ${range}.`);
    ok = false;
  }
  if (
    on !== undefined &&
    (!Array.isArray(on) ||
      on.length === 0 ||
      !on.every((code) => Number.isInteger(code) && code >= statuses.min && code <= statuses.max))
  ) {
    const range = `${statuses.min} to ${statuses.max}`;
    report("retry.on", "invalid_type", `on must list status codes from ${range}.`);
    ok = false;
  }
  if (!ok) return undefined;
  return {
    maxAttempts: maxAttempts as number,
    backoffSeconds: backoffSeconds as number,
    ...(Array.isArray(on) ? { on: [...new Set(on as number[])] } : {}),
  };
}
