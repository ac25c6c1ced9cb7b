/**
 * The `retry` setting of an http_request node (docs/api/webhooks.md#http-request-node): how many
 * attempts, the first wait, and which statuses are retried. Every problem is reported.
 */
import type { HttpRetry, ReportProblem } from "./types";

const FIELDS = ["maxAttempts", "backoffSeconds", "on"];

/** Reads `retry`, reporting under `retry.<field>`; undefined when it is too broken to keep. */
export function readRetry(raw: unknown, report: ReportProblem): HttpRetry | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    report("retry", "invalid_type", "retry must be an object.");
    return undefined;
  }
  const settings = raw as Record<string, unknown>;
  for (const field of Object.keys(settings)) {
    if (!FIELDS.includes(field)) report(`retry.${field}`, "unknown_field", "Unknown setting.");
  }
  const { maxAttempts, backoffSeconds = 1, on } = settings;
  let ok = true;
  if (
    typeof maxAttempts !== "number" ||
    !Number.isInteger(maxAttempts) ||
    maxAttempts < 1 ||
    maxAttempts > 10
  ) {
    report("retry.maxAttempts", "out_of_range", "maxAttempts must be an integer from 1 to 10.");
    ok = false;
  }
  if (typeof backoffSeconds !== "number" || backoffSeconds < 0.1 || backoffSeconds > 3_600) {
    report("retry.backoffSeconds", "out_of_range", "backoffSeconds must be from 0.1 to 3600.");
    ok = false;
  }
  if (
    on !== undefined &&
    (!Array.isArray(on) ||
      on.length === 0 ||
      !on.every((code) => Number.isInteger(code) && code >= 300 && code <= 599))
  ) {
    report("retry.on", "invalid_type", "on must list status codes from 300 to 599.");
    ok = false;
  }
  if (!ok) return undefined;
  return {
    maxAttempts: maxAttempts as number,
    backoffSeconds: backoffSeconds as number,
    ...(Array.isArray(on) ? { on: [...new Set(on as number[])] } : {}),
  };
}
