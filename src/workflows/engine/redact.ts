/** Secret redaction of what is shown; node outputs stay raw for templates (docs/api/webhooks.md). */
import { isPlainObject } from "./template";

const REDACTED = "[redacted]";

/**
 * Hides every occurrence of every secret in `text`, marked per character first so overlapping
 * secrets are covered whole; each run of hidden characters becomes one `[redacted]`.
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

/** A deep copy of JSON `value` with every secret in its string values `[redacted]` (keys kept). */
export function redactSecrets<T>(value: T, secretValues: string[]): T {
  return redact(value, secretsForRedaction(secretValues)) as T;
}

/** `redactSecrets` with {@link secretsForRedaction}'s output; with none, the value itself. */
export function redactPrepared<T>(value: T, prepared: string[]): T {
  return (prepared.length === 0 ? value : redact(value, prepared)) as T;
}

/**
 * `JSON.stringify(redactSecrets(value, secrets))` without the copy (hot path); secrets prepared.
 * Most records hold no secret: the plain JSON is made first (a replacer takes V8 off its fast
 * path) and kept when no secret appears in it as JSON writes it. A secret in a string value always
 * does (JSON escapes a string character by character, a well-formed secret's surrogate pairs whole);
 * one in a key only, or with a lone surrogate, takes the replacer, which is exact.
 */
export function redactedJson(value: unknown, secrets: string[]): string {
  const plain = JSON.stringify(value);
  if (secrets.length === 0 || plain === undefined) return plain;
  const absent = (secret: string) =>
    secret.isWellFormed() && !plain.includes(JSON.stringify(secret).slice(1, -1));
  if (secrets.every(absent)) return plain;
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "string" ? redactText(item, secrets) : item,
  );
}

/** The non-empty, distinct secret values, longest first: what `redactedJson` expects. */
export function secretsForRedaction(secretValues: string[]): string[] {
  return [...new Set(secretValues.filter((secret) => secret.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
}
