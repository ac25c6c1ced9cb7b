/** The one log writer (docs/security.md#logs): a JSON object per line, credentials taken out first. */

/** Header names whose values are always credentials. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "cookie",
  "set-cookie",
]);

/** Query parameter names that carry credentials by convention (compared lower-case). */
export const CREDENTIAL_QUERY_NAMES: ReadonlySet<string> = new Set([
  "key",
  "api_key",
  "apikey",
  "api-key",
  "x-api-key",
  "token",
  "access_token",
  "auth",
  "authorization",
  "bearer",
  "ticket",
  "secret",
  "password",
]);

/** Our credential formats and bearer values anywhere in a text. */
const SECRET_TEXT =
  /\b(?:wk_live_|mt_|whsec_)[A-Za-z0-9_-]+|\bBearer\s+[^\s"',;]+|\b(ticket|token|key)=[^&\s"']+/gi;

/** Whether a query value looks like one of our credentials (a widget key or member token). */
export function looksLikeCredential(value: string): boolean {
  return /^(?:wk_live_|mt_)[A-Za-z0-9_-]{8,}$/.test(value.trim());
}

/** `text` with anything that looks like a credential replaced by `[redacted]`. */
export function redactText(text: string): string {
  return text.replace(SECRET_TEXT, (_match, name?: string) =>
    name ? `${name}=[redacted]` : "[redacted]",
  );
}

/** A URL's path and query for a log line: credential-like query values replaced. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  const parts = [...parsed.searchParams].map(([name, value]) => {
    const secret = CREDENTIAL_QUERY_NAMES.has(name.toLowerCase()) || looksLikeCredential(value);
    return `${encodeURIComponent(name)}=${secret ? "[redacted]" : encodeURIComponent(value)}`;
  });
  // No path we issue holds a credential (docs/security.md#capability-urls).
  const path = parsed.pathname;
  return redactText(parts.length ? `${path}?${parts.join("&")}` : path);
}

/** Headers as a plain object for a log line, with credential headers replaced. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? "[redacted]" : redactText(value);
  }
  return out;
}

/** A log line's fields; `error` may be any thrown value, anything else not a scalar is stringified. */
type LogFields = Record<string, unknown>;

/**
 * Writes one JSON log line, strings through `redactText`, `error` as its redacted text.
 * @param level "error" and "warn" go to `console.error`, "info" to `console.log`
 */
export function log(level: "info" | "warn" | "error", event: string, fields: LogFields = {}): void {
  const line: Record<string, string | number | boolean | null> = { level, event };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (name === "error") line.error = redactText(String(value));
    else if (typeof value === "string") line[name] = redactText(value);
    else if (typeof value === "number" || typeof value === "boolean" || value === null) {
      line[name] = value;
    } else line[name] = redactText(String(value));
  }
  (level === "info" ? console.log : console.error)(JSON.stringify(line));
}
