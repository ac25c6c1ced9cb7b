/**
 * Resealing a runner's live states and kept inputs under the current key, a page at a time
 * (docs/security.md#rotating-keys); a record changed since its read is left as it is.
 */
import type { ResealPage } from "./contract";
import { inputKey, type Row } from "./execution-row";
import { type StateBox, stateAad } from "./state-box";

/**
 * Reseals the records after `after` (a storage key; null: from the first), at most `limit` of them.
 * @returns the key to go on after (null once the last record was seen) and what was resealed
 * @throws Error when a sealed value does not open with the configured keys
 */
export async function resealRecords(
  storage: DurableObjectStorage,
  box: StateBox,
  after: string | null,
  limit: number,
): Promise<ResealPage> {
  const rows = await storage.list<Row>({
    prefix: "x/",
    ...(after ? { startAfter: after } : {}),
    limit,
  });
  const page: ResealPage = { next: null, executions: 0, keptInputs: 0 };
  for (const [key, row] of rows) {
    page.next = key;
    const aad = stateAad(row.workflowId, row.id);
    const live = row.live ? await box.reseal(row.live, aad) : null;
    const input = row.input ? await box.reseal(row.input, aad) : null;
    if (live !== null || input !== null) {
      const now = await storage.get<Row>(key);
      if (now?.live === row.live && now?.input === row.input) {
        storage.put(key, { ...now, ...(live ? { live } : {}), ...(input ? { input } : {}) });
        page.executions += live ? 1 : 0;
        page.keptInputs += input ? 1 : 0;
      }
    }
    if (!row.hasInput) continue;
    const apart = await storage.get<string>(inputKey(row.id));
    const resealed = apart ? await box.reseal(apart, aad) : null;
    if (resealed !== null && (await storage.get<string>(inputKey(row.id))) === apart) {
      storage.put(inputKey(row.id), resealed);
      page.keptInputs += 1;
    }
  }
  if (rows.size < limit) page.next = null;
  return page;
}
