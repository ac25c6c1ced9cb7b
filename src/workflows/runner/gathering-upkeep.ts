/**
 * Upkeep of the calls gatherings hold (docs/webhooks.md#debounce, docs/webhooks.md#batch), sealed
 * until they run: erasure (docs/security.md#erasure) and key rotation
 * (docs/security.md#rotating-keys), each over at most MAX_UPKEEP_SCAN calls.
 */
import { log } from "../../platform/log";
import type { GatheringStore } from "./gathering-store";
import { type StateBox, stateAad } from "./state-box";

/** Waiting calls one pass reads at most (MAX_GATHERINGS gatherings of 10 calls). */
const MAX_UPKEEP_SCAN = 100_000;

/**
 * Drops the waiting calls that carry a person, each opened to be read; a gathering left with no
 * call runs nothing. A call that no longer opens can never run: it goes too.
 * @returns how many calls were dropped
 */
export async function eraseGathered(
  store: GatheringStore,
  box: StateBox,
  carries: (text: string) => boolean,
): Promise<number> {
  const calls = store.everyCall(MAX_UPKEEP_SCAN + 1);
  if (calls.length > MAX_UPKEEP_SCAN)
    log("warn", "gathering_erase_capped", { calls: calls.length });
  let dropped = 0;
  for (const call of calls.slice(0, MAX_UPKEEP_SCAN)) {
    const aad = stateAad(call.workflow_id, call.call_id);
    const text = await box.open(call.data, aad).catch(() => null);
    if (text !== null && !carries(text)) continue;
    store.dropCall(call.execution_id, call.n);
    dropped++;
  }
  return dropped;
}

/**
 * Seals the waiting calls again under the current key; a call changed since its read is left as it
 * is (it was sealed under the current key).
 * @returns how many were resealed
 * @throws Error when one does not open with the configured keys
 */
export async function resealGathered(store: GatheringStore, box: StateBox): Promise<number> {
  let resealed = 0;
  for (const call of store.everyCall(MAX_UPKEEP_SCAN)) {
    const data = await box.reseal(call.data, stateAad(call.workflow_id, call.call_id));
    if (data !== null && store.replaceCall(call, data)) resealed++;
  }
  return resealed;
}
