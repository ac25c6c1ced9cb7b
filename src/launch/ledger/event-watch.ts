/**
 * The ledger's watch over its workspace's events (docs/events.md#delivery): after each write that
 * may have recorded events, the alarm is set to fire within RELAY_GRACE_MS; each firing records
 * `link.expired` for links that expired unopened since the last one, sends overdue deliveries
 * again, runs the daily retention sweep when due, and sets the next firing (the next expiry, the
 * next overdue delivery, or the next sweep).
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

/** Alarm scheduling and relay for one ledger; see the file's docstring. */
export class EventWatch {
  /** Whether the alarm's workspace id and expiry cursor are stored. */
  private watching = false;
  /** The fallback firing set at the start of a firing, until the firing sets the next one. */
  private fallbackAt: number | null = null;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: AppBindings,
    private readonly db: DrizzleD1Database,
    /** Writes of concurrent calls share D1 round trips (group commit). */
    private readonly writes = new D1WriteBatcher(env.DB),
  ) {}

  /**
   * Writes a state change with its events as one D1 write, then queues the deliveries it created.
   * @returns each statement's result
   */
  async write(
    workspaceId: string,
    statements: Parameters<D1WriteBatcher["runAll"]>[0],
  ): Promise<D1Result[]> {
    await this.watch(workspaceId);
    const results = await this.writes.runAll(statements);
    this.relay(results);
    return results;
  }

  /**
   * Remembers the workspace for the alarm (and, the first time, that expiries are recorded from
   * now on) and makes sure the alarm fires soon enough to relay what the coming write records.
   */
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
   * Runs the retention sweep (docs/security.md#retention) when a day has passed since the last
   * one, or a page of it was left: a ledger's first firing starts the clock, sweeping a day later.
   * @returns when the alarm must fire for the next page or sweep (epoch ms)
   */
  private async sweep(workspaceId: string, now: number): Promise<number> {
    const known = await this.ctx.storage.get<Sweep>("retention");
    const last = known ?? newSweep(now);
    if (!last.more && now < last.sweptAt + DAY_MS) {
      // The first firing starts the clock: the first sweep is a day later.
      if (!known) await this.ctx.storage.put("retention", last);
      return last.sweptAt + DAY_MS;
    }
    const page = await sweepRetention(this.env, this.db, workspaceId, last.through, now);
    const sweptAt = page.more ? last.sweptAt : now;
    await this.ctx.storage.put("retention", { sweptAt, through: page.through, more: page.more });
    return page.more ? now : now + DAY_MS;
  }

  /** Puts the deliveries a committed write created onto the queue, after the call has answered. */
  private relay(results: D1Result[]): void {
    const ids = createdDeliveries(results);
    if (ids.length > 0) this.ctx.waitUntil(enqueueDeliveries(this.env, ids));
  }

  /**
   * One firing of the alarm. A fallback firing is set first, so a firing that fails past the
   * runtime's own retries still comes back; a relay check that a write asks for meanwhile is kept.
   * @param load rebuilds the ledger's pending set when needed
   * @param earliestExpiry the next expiry among pending links (epoch ms), or null
   */
  async fire(
    load: (workspaceId: string) => Promise<void>,
    earliestExpiry: (now: number) => number | null,
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
    const sweepAt = await this.sweep(workspaceId, now);
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
