/** When a Conversation's alarm must next fire (docs/architecture.md#conversation). */
import { IDLE_TIMEOUT_MS } from "../protocol";
import type { ConversationStore } from "./store";

/**
 * The earliest of: the outbox's next retry, a pending link's expiry (`pendingExpiry`), and, while
 * the conversation is open, its idle timeout and the link's expiry. Epoch ms, never before
 * `now + 1`; null when nothing is due.
 */
export function nextAlarmAt(
  store: ConversationStore,
  pendingExpiry: number | null,
  now: number,
): number | null {
  const state = store.state();
  const times = [store.nextOutboxDue(), pendingExpiry];
  const expiresAt = store.facts()?.expiresAt;
  const activeAt = store.lastActivityAt();
  if (state && activeAt !== null && state.endedAt === null) {
    times.push(activeAt + IDLE_TIMEOUT_MS);
    if (expiresAt !== undefined) times.push(expiresAt);
  }
  const next = Math.min(...times.filter((t): t is number => t !== null));
  return Number.isFinite(next) ? Math.max(next, now + 1) : null;
}
