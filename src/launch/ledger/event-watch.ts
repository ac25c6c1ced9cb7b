/**
 * The ledger's alarm over its workspace's events (docs/events.md#delivery): set within
 * RELAY_GRACE_MS of a write that may have recorded events; records `link.expired`, resends overdue
 * deliveries and runs the daily retention sweep.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { DAY_MS } from "../../db/retention";
import { createdDeliveries, enqueueDeliveries } from "../../events";
import { D1WriteBatcher } from "../../platform/d1-write-batcher";
import type { AppBindings } from "../../platform/env";
import { type ExpiryPosition, relayCheckAt, watchEvents } from "./lifecycle-events";
import { type SweptThrough, sweepRetention } from "./retention-sweep";

/** The retention sweep's state: when it last ran, where it got to, and whether pages are left. */
type Sweep = { sweptAt: number; through: SweptThrough | null; more: boolean };
const newSweep = (now: number): Sweep => ({ sweptAt: now, through: null, more: false });

/** The least time between two firings, so links expiring close together share one (ms). */
const ALARM_SPACING_MS = 10_000;

/** Alarm scheduling and relay for one ledger. */
export class EventWatch {
  /** Whether the alarm's workspace id and expiry cursor are stored. */
  private watching = false;
  /** The fallback firing set at the start of a firing, until the firing sets the next one. */
  private fallbackAt: number | null = null;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: AppBindings,
    private readonly db: DrizzleD1Database,
    private readonly writes = new D1WriteBatcher(env.DB),
  ) {}

  /** Writes a state change with its events in one D1 write, then queues its deliveries; results. */
  async write(
    workspaceId: string,
    statements: Parameters<D1WriteBatcher["runAll"]>[0],
  ): Promise<D1Result[]> {
    await this.watch(workspaceId);
    const results = await this.writes.runAll(statements);
    this.relay(results);
    return results;
  }

  /** Remembers the workspace for the alarm and has it fire soon enough to relay the coming write. */
  async watch(workspaceId: string): Promise<void> {
    if (!this.watching) {
      const known = await this.ctx.storage.get<ExpiryPosition>("expiredThrough");
      const expiredThrough = known ?? { expiresAt: Date.now(), id: "" };
      await this.ctx.storage.put({ workspaceId, expiredThrough });
      this.watching = true;
    }
    const at = relayCheckAt(Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at || current === this.fallbackAt) {
      await this.ctx.storage.setAlarm(at);
      this.fallbackAt = null;
    }
  }

  /**
   * Runs the retention sweep (docs/security.md#retention) daily, or its next page.
   * @returns when the alarm must fire for the next page or sweep (epoch ms)
   */
  private async sweep(
    workspaceId: string,
    now: number,
    forget: (linkIds: string[]) => void,
  ): Promise<number> {
    const known = await this.ctx.storage.get<Sweep>("retention");
    const last = known ?? newSweep(now);
    if (!last.more && now < last.sweptAt + DAY_MS) {
      // The first firing starts the clock: the first sweep is a day later.
      if (!known) await this.ctx.storage.put("retention", last);
      return last.sweptAt + DAY_MS;
    }
    const page = await sweepRetention(this.env, this.db, workspaceId, last.through, now);
    forget(page.swept);
    const sweptAt = page.more ? last.sweptAt : now;
    await this.ctx.storage.put("retention", { sweptAt, through: page.through, more: page.more });
    return page.more ? now : now + DAY_MS;
  }

  /** Puts the deliveries a committed write created onto the queue, after the call has answered. */
  private relay(results: D1Result[]): void {
    const created = createdDeliveries(results);
    if (created.length > 0) this.ctx.waitUntil(enqueueDeliveries(this.env, created));
  }

  /**
   * One firing; a fallback firing is set first, so one failing past the runtime's retries returns.
   * @param load rebuilds the ledger's pending set when needed
   * @param earliestExpiry the next expiry among pending links (epoch ms), or null
   * @param forget drops the cached rows of links the retention sweep changed
   */
  async fire(
    load: (workspaceId: string) => Promise<void>,
    earliestExpiry: (now: number) => number | null,
    forget: (linkIds: string[]) => void,
  ): Promise<void> {
    const stored = await this.ctx.storage.get<unknown>(["workspaceId", "expiredThrough"]);
    const workspaceId = stored.get("workspaceId");
    if (typeof workspaceId !== "string") return;
    const now = Date.now();
    this.fallbackAt = relayCheckAt(now);
    await this.ctx.storage.setAlarm(this.fallbackAt);
    await load(workspaceId);
    const from = (stored.get("expiredThrough") as ExpiryPosition | undefined) ?? {
      expiresAt: now,
      id: "",
    };
    const write = (statements: Parameters<D1WriteBatcher["runAll"]>[0]) =>
      this.writes.runAll(statements);
    const watched = await watchEvents(this.env, this.db, write, workspaceId, from, now);
    await this.ctx.storage.put("expiredThrough", watched.through);
    this.relay(watched.results);
    const sweepAt = await this.sweep(workspaceId, now, forget);
    const none = Number.POSITIVE_INFINITY;
    const next = Math.max(
      Math.min(
        watched.done ? none : now,
        earliestExpiry(now) ?? none,
        watched.relayAgainAt ?? none,
        sweepAt,
      ),
      now + ALARM_SPACING_MS,
    );
    const current = await this.ctx.storage.getAlarm();
    // A write during this firing asked for a relay check: the earlier of the two stands.
    const asked = current !== null && current !== this.fallbackAt ? current : none;
    const at = Math.min(next, asked);
    this.fallbackAt = null;
    if (Number.isFinite(at)) await this.ctx.storage.setAlarm(at);
    else await this.ctx.storage.deleteAlarm();
  }
}
