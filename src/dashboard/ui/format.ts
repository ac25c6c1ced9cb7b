/** Plain-text formats the screens share (docs/dashboard.md#screens): durations, sizes, JSON. */

/**
 * How long from `startIso` to `endIso` took, as "840 ms", "1.2 s", "3 min 4 s" or "2 h 5 min".
 * Null when it has not ended (or either time is missing or unreadable).
 */
export function duration(startIso: string | null, endIso: string | null): string | null {
  if (!startIso || !endIso) return null;
  const ms = Date.parse(endIso) - Date.parse(startIso);
  if (!Number.isFinite(ms) || ms < 0) return null;
  return milliseconds(ms);
}

/** A span of `ms` milliseconds, rounded to what a person reads at a glance. */
export function milliseconds(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

/** A size in bytes as "512 B", "1.5 KiB" or "1.0 MiB" (binary units, as the docs' limits). */
export function bytes(size: number): string {
  if (size < 1_024) return `${size} B`;
  if (size < 1_048_576) return `${(size / 1_024).toFixed(1)} KiB`;
  return `${(size / 1_048_576).toFixed(1)} MiB`;
}

/** Any JSON value, indented by two spaces; `undefined` (no value at all) as an empty string. */
export function prettyJson(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value, null, 2);
}

/** A body as text: indented when it is JSON, as it arrived otherwise. */
export function prettyBody(text: string): string {
  try {
    return prettyJson(JSON.parse(text));
  } catch {
    return text;
  }
}
