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
  | "era";

/** A new unguessable id: `<prefix>_` + 22 base62 chars (about 131 random bits; docs/architecture.md#ids-and-formats). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

/** ISO 8601 UTC with milliseconds from epoch milliseconds, e.g. `2026-11-20T10:00:00.000Z`. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Like {@link isoTime} for nullable columns. */
export function isoTimeOrNull(epochMs: number | null | undefined): string | null {
  return epochMs == null ? null : isoTime(epochMs);
}
