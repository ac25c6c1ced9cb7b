/**
 * The rate limit's counted times that request-log entries keep (`rateAt`,
 * docs/scaling.md#rate-limits): what a restarted runner rebuilds a node's window from.
 */
import { suffixFromId } from "./request-log-entry";

/**
 * Entries are kept at least this long (ms), whatever the limits shown, for their `rateAt`: a
 * rate-limit window (a minute) and as long again for the wait between a call and its entry.
 */
export const RATE_KEEP_MS = 2 * 60_000;
const PAGE = 64;

type Counted = { id: string; nodeKey: string; rateAt?: number };

/**
 * The times `nodeKey`'s rate limit counted after `since` (epoch ms), from the entries not written
 * yet and the stored values under `prefix` (newest first, until a value whose newest entry came
 * RATE_KEEP_MS before `since`).
 */
export async function rateTimesIn(
  storage: DurableObjectStorage,
  prefix: string,
  unsaved: { entry: Counted }[],
  { nodeKey, since }: { nodeKey: string; since: number },
): Promise<number[]> {
  const times: number[] = [];
  const take = (entry: Counted) => {
    if (entry.nodeKey === nodeKey && entry.rateAt !== undefined && entry.rateAt > since)
      times.push(entry.rateAt);
  };
  for (const item of unsaved) take(item.entry);
  const oldest = `${String(since - RATE_KEEP_MS).padStart(15, "0")}000`;
  let end: string | undefined;
  for (;;) {
    const values = await storage.list<Counted[] | Counted>({
      prefix,
      ...(end !== undefined ? { end } : {}),
      reverse: true,
      limit: PAGE,
    });
    for (const [key, value] of values) {
      end = key;
      const entries = Array.isArray(value) ? value : [value];
      for (const entry of entries) take(entry);
      const newest = entries.at(-1);
      if (newest && (suffixFromId(newest.id) ?? "") < oldest) return times;
    }
    if (values.size < PAGE) return times;
  }
}
