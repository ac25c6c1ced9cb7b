/**
 * Secret redaction for execution records (docs/api/webhooks.md: "secret values are redacted"). Node outputs
 * keep raw values for later templates; anything shown or returned goes through here first.
 */
import { isPlainObject } from "./template";

const REDACTED = "[redacted]";

/**
 * Hides every occurrence of every secret in `text`. Occurrences are marked character by character
 * before anything is replaced, so overlapping or nested secrets are covered completely and the
 * marker text itself is never matched; each run of hidden characters becomes one `[redacted]`.
 */
function redactText(text: string, secrets: string[]): string {
  let hidden: Uint8Array | undefined;
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      hidden ??= new Uint8Array(text.length);
      hidden.fill(1, at, at + secret.length);
    }
  }
  if (!hidden) return text;
  let out = "";
  let start = 0;
  while (start < text.length) {
    let end = start;
    const flag = hidden[start];
    while (end < text.length && hidden[end] === flag) end++;
    out += flag ? REDACTED : text.slice(start, end);
    start = end;
  }
  return out;
}

function redact(value: unknown, secrets: string[]): unknown {
  if (typeof value === "string") return secrets.length > 0 ? redactText(value, secrets) : value;
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redact(item, secrets)]),
    );
  }
  return value;
}

/**
 * Returns a deep copy of `value` (JSON data: arrays and plain objects are copied) in which every
 * occurrence of a non-empty secret value inside any string value is replaced by `[redacted]`.
 * Object keys and non-string values are kept. The input is not mutated.
 */
export function redactSecrets<T>(value: T, secretValues: string[]): T {
  return redact(value, secretsForRedaction(secretValues)) as T;
}

/**
 * `redactSecrets` with secrets prepared once by {@link secretsForRedaction}, for a hot path: with
 * no secrets the value itself is returned, not a copy.
 */
export function redactPrepared<T>(value: T, prepared: string[]): T {
  return (prepared.length === 0 ? value : redact(value, prepared)) as T;
}

/**
 * `JSON.stringify(redactSecrets(value, secrets))` without the intermediate copy: what the runner
 * stores for every execution, so it is on the hot path.
 * @param secrets prepared once by {@link secretsForRedaction}
 */
export function redactedJson(value: unknown, secrets: string[]): string {
  if (secrets.length === 0) return JSON.stringify(value);
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "string" ? redactText(item, secrets) : item,
  );
}

/** The non-empty, distinct secret values, longest first: what `redactedJson` expects. */
export function secretsForRedaction(secretValues: string[]): string[] {
  // Marking makes the order irrelevant to the result; longest first still reads as the rule.
  return [...new Set(secretValues.filter((secret) => secret.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
}
