import { randomBase62 } from "./crypto";

/** Id prefixes of docs/architecture.md#ids-and-formats. */
export type IdPrefix =
  | "ws"
  | "mem"
  | "wk"
  | "agt"
  | "ch"
  | "lnk"
  | "ses"
  | "wf"
  | "exe"
  | "ep"
  | "evt"
  | "dlv"
  | "att"
  | "sil"
  | "dss"
  | "pk"
  | "wch"
  | "rsl"
  | "era"
  | "aud";

/** A new unguessable id: `<prefix>_` + 22 base62 chars (about 131 random bits; docs/architecture.md#ids-and-formats). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Characters of a time-ordered id's time: `ms × 1,000 + n` in base62, fixed width (to year 2255). */
const TIME_CHARS = 9;
/** Random characters after them: about 89 bits. */
const TIME_RANDOM_CHARS = 15;
let lastTime = 0;

/**
 * A new execution id whose characters sort in creation time: `exe_` + 9 base62 characters of
 * `ms × 1,000 + n` (`n` orders the ids one isolate makes in a millisecond) + 15 random
 * (docs/architecture.md#ids-and-formats). A runner keys the record by it, so finding an execution
 * by id needs no index of its own (docs/performance.md#counts-per-call).
 * @param now epoch ms of its creation (the call's `receivedAt`)
 */
export function newExecutionId(now = Date.now()): string {
  // Ids of one millisecond count on in the order made; any other time starts its own count (a
  // clock that steps back gives ids that sort by the time they carry).
  const base = now * 1000;
  lastTime = lastTime >= base && lastTime < base + 999 ? lastTime + 1 : base;
  return `exe_${idTimeChars(lastTime)}${randomBase62(TIME_RANDOM_CHARS)}`;
}

/** A time (`ms × 1,000 + n`) as a time-ordered id writes it: 9 base62 characters that sort as it. */
export function idTimeChars(time: number): string {
  let out = "";
  for (let rest = Math.max(0, Math.floor(time)), i = 0; i < TIME_CHARS; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** The creation time (`ms × 1,000 + n`) of an id made by `newExecutionId`, or null for another id. */
export function executionIdTime(id: string): number | null {
  // Called four times per webhook call: characters are read by code, with no regex.
  const length = id.length - markChars(shardMark(id));
  if (length !== 4 + TIME_CHARS + TIME_RANDOM_CHARS || !id.startsWith("exe_")) return null;
  let time = 0;
  for (let i = 4; i < length; i++) {
    const digit = BASE62_VALUES[id.charCodeAt(i)] ?? -1;
    if (digit < 0) return null;
    if (i < 4 + TIME_CHARS) time = time * 62 + digit;
  }
  return time;
}

/** Each ASCII character's base62 value, -1 for any other. */
const BASE62_VALUES = Int8Array.from({ length: 128 }, (_, code) =>
  BASE62.indexOf(String.fromCharCode(code)),
);
const DASH = 45;
const ZERO = 48;
const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;

/**
 * The runner shard an id names by its end, `-<n>` for n from 1 to 99 (docs/scaling.md#runner-shards),
 * or 0 for an id without that mark: what `/-([1-9]\d?)$/` reads, without a regex (per call).
 */
export function shardMark(id: string): number {
  const end = id.length;
  const last = id.charCodeAt(end - 1);
  if (!isDigit(last)) return 0;
  if (id.charCodeAt(end - 2) === DASH) return last - ZERO;
  const tens = id.charCodeAt(end - 2);
  const marked = id.charCodeAt(end - 3) === DASH && isDigit(tens) && tens !== ZERO;
  return marked ? (tens - ZERO) * 10 + (last - ZERO) : 0;
}

/** The characters of shard `shard`'s mark at an id's end (none for 0, unmarked). */
export const markChars = (shard: number) => (shard === 0 ? 0 : shard < 10 ? 2 : 3);

/** ISO 8601 UTC with milliseconds from epoch milliseconds, e.g. `2026-11-20T10:00:00.000Z`. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Like {@link isoTime} for nullable columns. */
export function isoTimeOrNull(epochMs: number | null | undefined): string | null {
  return epochMs == null ? null : isoTime(epochMs);
}
