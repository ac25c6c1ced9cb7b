/** Erasing a person from a runner's request log (docs/security.md#erasure). */

type Entry = { id: string; fullBody: boolean };

/**
 * Rewrites the log's values without the entries `carries` finds in (their JSON, or their kept body).
 * @param keys the log's key prefixes: `entry` (values of entries) and `body` (kept bodies by suffix)
 * @param suffixOf an entry's key suffix (its body's key is `body` + it)
 * @param onErased hears of each entry deleted
 * @returns how many entries were deleted
 */
export async function eraseLogEntries<E extends Entry>(
  storage: DurableObjectStorage,
  keys: { entry: string; body: string },
  suffixOf: (entry: E) => string,
  carries: (text: string) => boolean,
  onErased: (entry: E) => void = () => {},
): Promise<number> {
  const values = await storage.list<E[] | E>({ prefix: keys.entry });
  let erased = 0;
  for (const [key, value] of values) {
    const entries = Array.isArray(value) ? value : [value];
    const kept: E[] = [];
    for (const entry of entries) {
      const bodyKey = `${keys.body}${suffixOf(entry)}`;
      const body = entry.fullBody ? await storage.get<string | Uint8Array>(bodyKey) : undefined;
      const text = typeof body === "string" ? body : body ? new TextDecoder().decode(body) : "";
      if (!carries(JSON.stringify(entry)) && !carries(text)) {
        kept.push(entry);
        continue;
      }
      erased += 1;
      onErased(entry);
      if (body !== undefined) await storage.delete(bodyKey);
    }
    if (kept.length === entries.length) continue;
    if (kept.length === 0) await storage.delete(key);
    else await storage.put(key, kept);
  }
  return erased;
}
