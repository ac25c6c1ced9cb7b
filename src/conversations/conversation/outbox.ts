/** The Conversation's outbox, delivered at least once (docs/architecture.md#conversation). */
import { linkLedger } from "../../launch/ledger/client";
import type { AppBindings } from "../../platform/env";
import { log } from "../../platform/log";
import { requestAnalysis } from "../analysis";
import { deliverConversationEvent } from "../workflow-triggers";
import { tellAsker } from "./questions";
import { type ConversationStore, linkEndReason } from "./store";

/** Delays (ms) before the 1st, 2nd… retry of an item; the last repeats. */
const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** Sends due outbox items of one conversation. */
export class OutboxDelivery {
  /** Items being delivered right now: the alarm and a fresh enqueue may overlap. */
  private readonly delivering = new Set<string>();

  constructor(
    private readonly env: AppBindings,
    private readonly store: ConversationStore,
  ) {}

  /** Delivers every item due at `now` (epoch ms); a failure is logged and retried later. */
  async deliver(now: number): Promise<void> {
    const facts = this.store.facts();
    for (const { item, attempts } of this.store.dueOutbox(now)) {
      if (this.delivering.has(item.id)) continue;
      // A question's asker needs no facts: a link never opened may close its questions. The
      // other items are queued only once the conversation has facts.
      if (!facts && item.kind !== "answer" && item.kind !== "close-question") continue;
      this.delivering.add(item.id);
      try {
        if (item.kind === "answer" || item.kind === "close-question") {
          await tellAsker(this.env, item);
        } else if (facts && item.kind === "link-ended") {
          await linkLedger(this.env, facts.workspaceId).endLink(
            facts.workspaceId,
            facts.linkId,
            item.at,
            item.reason ?? linkEndReason(this.store.state()?.endReason),
          );
        } else if (facts && item.kind === "event") {
          await deliverConversationEvent(this.env, facts, item);
          // After the end, never before it: the analysis runs on its own queue.
          if (item.event === "conversation.ended") await requestAnalysis(this.env, facts);
        }
        this.store.delivered(item.id);
      } catch (error) {
        const delay = OUTBOX_RETRY_MS[Math.min(attempts, OUTBOX_RETRY_MS.length - 1)] ?? 600_000;
        this.store.retryLater(item.id, Date.now() + delay);
        log("warn", "outbox_retry", { kind: item.kind, error });
      } finally {
        this.delivering.delete(item.id);
      }
    }
  }
}
