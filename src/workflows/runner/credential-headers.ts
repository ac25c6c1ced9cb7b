/**
 * Credentials in the headers a workflow sees (docs/security.md#what-executions-show): the caller's
 * `Authorization`, cookies, API keys and signatures, and an http_request answer's `Set-Cookie`.
 * Templates read them raw while an execution runs; everything stored to be shown (execution
 * records, the request log, captured samples) has their values replaced by `[redacted]`, and a
 * record whose view changed keeps the raw call sealed, for replays only.
 */
import { redactedJson } from "../engine/redact";
import { isPlainObject } from "../engine/template";
import type { NodeRun, WorkflowDefinition } from "../nodes/types";

const REDACTED = "[redacted]";
/** Header names whose values are credentials, cookies or signatures. */
const SENSITIVE_NAME =
  /auth|cookie|secret|token|passw|signature|hmac|api[-_]?key|session|credential/i;
/**
 * A credential copied elsewhere (a set node, a request's body) is redacted by its value when at
 * least this long: shorter values would hide unrelated text ("1", "yes") all over the record.
 */
const MIN_VALUE_CHARS = 8;

/**
 * The headers with the value of every credential, signature or cookie header, and of `extra` (a
 * node's own signature header), replaced by `[redacted]`.
 */
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
 * The node runs of an execution as its record shows them, as JSON: secret values redacted
 * everywhere; the credential headers of the call that started it and of each http_request answer
 * redacted by name; and those credentials' values (of MIN_VALUE_CHARS or more) redacted wherever a
 * later node copied them.
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
  const shown = runs.map((run) => {
    const output = run.output;
    const headers = isPlainObject(output) ? output.headers : undefined;
    if (!isPlainObject(output) || !isPlainObject(headers)) return run;
    if (run.type !== "webhook" && run.type !== "http_request") return run;
    const own = run.key === triggerKey ? extra : undefined;
    const redacted = redactHeaders(headers as Record<string, string>, own);
    for (const [name, value] of Object.entries(headers)) {
      if (
        redacted[name] === REDACTED &&
        typeof value === "string" &&
        value.length >= MIN_VALUE_CHARS
      )
        values.push(value);
    }
    return { ...run, output: { ...output, headers: redacted } };
  });
  return redactedJson(shown, values.length === 0 ? secrets : [...secrets, ...values]);
}
