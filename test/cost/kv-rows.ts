/**
 * Rows read and written by the key-value methods of a SQLite-backed object's storage
 * (docs/performance.md#how-the-counts-are-made). The runtime keeps those keys in a hidden table,
 * `_cf_KV (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID`, one statement per key, and bills
 * the rows those statements read and write; the SQL API cannot reach that table, so each method is
 * costed by the rows its statements count on a table of the same shape (kv-calibration in
 * meter.test.ts holds these rules to SQLite's own counters):
 * - get: 1 row read per key found (a missing key reads none);
 * - put: 1 row written per key, new or replaced;
 * - delete: 1 row read and 1 written per key that existed;
 * - list: 1 row read per key returned, plus the first key past an `end` (or the prefix's end)
 *   that the scan reads to stop, unless the `limit` stopped it first;
 * - setAlarm (the pricing page's rule) and deleteAlarm (assumed the same): 1 row written.
 */

export type KvCost = { rowsRead: number; rowsWritten: number };

type ListOptions = DurableObjectListOptions;
type List = (options: ListOptions) => Promise<Map<string, unknown>>;

/** The key just after every key that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/**
 * The cost of one call, from its arguments and result.
 * @param list the storage's own `list`, unmetered, to see whether a key lies past the end
 */
export async function kvCost(
  method: string,
  args: unknown[],
  result: unknown,
  list: List,
): Promise<KvCost> {
  switch (method) {
    case "get":
      return {
        rowsRead: result instanceof Map ? result.size : result === undefined ? 0 : 1,
        rowsWritten: 0,
      };
    case "put":
      return {
        rowsRead: 0,
        rowsWritten: typeof args[0] === "string" ? 1 : Object.keys(args[0] as object).length,
      };
    case "delete": {
      const deleted = typeof result === "number" ? result : result === true ? 1 : 0;
      return { rowsRead: deleted, rowsWritten: deleted };
    }
    case "list":
      return {
        rowsRead: await listRows(args[0] as ListOptions | undefined, result, list),
        rowsWritten: 0,
      };
    case "setAlarm":
    case "deleteAlarm":
      return { rowsRead: 0, rowsWritten: 1 };
    default:
      return { rowsRead: 0, rowsWritten: 0 };
  }
}

async function listRows(options: ListOptions = {}, result: unknown, list: List): Promise<number> {
  const returned = result instanceof Map ? result.size : 0;
  if (options.limit !== undefined && returned >= options.limit) return returned;
  const ends = [options.end, options.prefix === undefined ? undefined : prefixEnd(options.prefix)];
  const end = ends.filter((key): key is string => key !== undefined).sort()[0];
  if (end === undefined) return returned;
  const past = await list({ start: end, limit: 1 });
  return returned + past.size;
}
