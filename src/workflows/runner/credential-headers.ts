/**
 * Credential headers a workflow sees (docs/security.md#what-executions-show): raw for templates,
 * `[redacted]` in everything stored to be shown.
 */
import { redactedJson } from "../engine/redact";
import { isPlainObject } from "../engine/template";
import type { NodeRun, WorkflowDefinition } from "../nodes/types";

const REDACTED = "[redacted]";
/** Header names whose values are credentials, cookies or signatures. */
const SENSITIVE_NAME =
  /auth|cookie|secret|token|passw|signature|hmac|api[-_]?key|session|credential/i;
/** A copied credential is redacted by value from this length: shorter ones would hide "yes" everywhere. */
const MIN_VALUE_CHARS = 8;

/** The headers with credential, signature and cookie values, and `extra`'s, `[redacted]`. */
export function redactHeaders(
  headers: Record<string, string>,
  extra?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SENSITIVE_NAME.test(name) || name === extra ? REDACTED : value;
  }
  return out;
}

/**
 * An execution's node runs as shown, JSON: secrets redacted, credential headers by name, and their
 * values (MIN_VALUE_CHARS or more) wherever copied.
 * @param definition the definition the execution runs (its trigger's own signature header)
 * @param secrets prepared by `secretsForRedaction`
 */
export function shownRunsJson(
  definition: WorkflowDefinition,
  triggerKey: string,
  runs: NodeRun[],
  secrets: string[],
): string {
  const trigger = definition.nodes.find((node) => node.key === triggerKey);
  const extra = trigger?.type === "webhook" ? trigger.verify?.header : undefined;
  const values: string[] = [];
  /** The headers redacted; their credential values kept to be redacted wherever copied. */
  const redact = (headers: Record<string, unknown>, own: string | undefined) => {
    const redacted = redactHeaders(headers as Record<string, string>, own);
    for (const [name, value] of Object.entries(headers)) {
      const long = typeof value === "string" && value.length >= MIN_VALUE_CHARS;
      if (redacted[name] === REDACTED && long) values.push(value as string);
    }
    return redacted;
  };
  const shown = runs.map((run) => {
    const output = run.output;
    if (!isPlainObject(output)) return run;
    if (run.type !== "webhook" && run.type !== "http_request") return run;
    const own = run.key === triggerKey ? extra : undefined;
    // A batch's calls are its items, each with its own headers (docs/webhooks.md#batch).
    if (run.type === "webhook" && Array.isArray(output.items)) {
      const items = output.items.map((item) =>
        isPlainObject(item) && isPlainObject(item.headers)
          ? { ...item, headers: redact(item.headers, own) }
          : item,
      );
      return { ...run, output: { ...output, items } };
    }
    const headers = output.headers;
    if (!isPlainObject(headers)) return run;
    return { ...run, output: { ...output, headers: redact(headers, own) } };
  });
  return redactedJson(shown, values.length === 0 ? secrets : [...secrets, ...values]);
}
