/**
 * A runner's hourly counters for the workspace's metrics (docs/operations.md#metrics), kept 400
 * days, one value per hour, `mh/<hour start, ms, 15 digits>`. Counted in memory and written
 * unconfirmed by the alarm a minute after a group's first count, or by a read (cost and what a
 * crash loses: docs/performance.md; why an alarm: docs/architecture.md#workflow-runner).
 */
import { GroupCommit } from "../../platform/group-commit";
import { log } from "../../platform/log";
import {
  addCounts,
  countCall,
  countExecution,
  type ExecutionResult,
  emptyCounts,
  type MetricBucket,
  type MetricCounts,
} from "./metrics-counts";
import type { RequestOutcome } from "./request-log-entry";

/** The counters' limits (docs/operations.md#metrics). */
export const RUNNER_METRICS = {
  hourMs: 3_600_000,
  /** How long counts gather in memory before they are written (ms). */
  writeEveryMs: 60_000,
  /** How long an hour's counts are kept (ms). */
  keepMs: 400 * 24 * 3_600_000,
} as const;

const PREFIX = "mh/";
const hourKey = (hour: number) => `${PREFIX}${String(Math.max(0, hour)).padStart(15, "0")}`;
const hourOf = (at: number) => Math.floor(at / RUNNER_METRICS.hourMs) * RUNNER_METRICS.hourMs;

/** The runner's hourly counters, in memory and in the object's storage. */
export class RunnerMetrics {
  private pending = new Map<number, MetricCounts>();
  /** Set once the workflow is deleted: nothing is written again. */
  private closed = false;
  /** When the pending counts are due to be written (epoch ms), or null with none pending. */
  private dueAt: number | null = null;
  /** One write at a time (`GroupCommit`); requested by the alarm and by reads. */
  private readonly commit = new GroupCommit(() => this.write());
  /** The newest hour written, as stored, so the next write adds to it without a read. */
  private newest: { hour: number; counts: MetricCounts } | null = null;

  /** @param wakeAt has the object's alarm fire by the time given (epoch ms) */
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly wakeAt: (at: number) => Promise<void>,
  ) {}

  /** Counts an execution that finished at `at` (epoch ms). */
  execution(result: ExecutionResult, at = Date.now()): void {
    countExecution(this.hour(at), result);
  }

  /** Counts a webhook call answered at `at` (epoch ms) after `latencyMs`. */
  call(outcome: RequestOutcome, latencyMs: number, at = Date.now()): void {
    countCall(this.hour(at), outcome, latencyMs);
  }

  /** The pending counts of `at`'s hour; the first count of a group has the alarm fire for it. */
  private hour(at: number): MetricCounts {
    if (this.dueAt === null) {
      this.dueAt = Date.now() + RUNNER_METRICS.writeEveryMs;
      this.wakeAt(this.dueAt).catch((error: unknown) => {
        log("warn", "runner_metrics_alarm_failed", { error });
      });
    }
    const hour = hourOf(at);
    let counts = this.pending.get(hour);
    if (!counts) {
      counts = emptyCounts();
      this.pending.set(hour, counts);
    }
    return counts;
  }

  /** The alarm fired: writes the pending counts if due, else sets the alarm for when they are. */
  async alarm(now = Date.now()): Promise<void> {
    if (this.dueAt === null) return;
    if (this.dueAt <= now) await this.commit.request(0);
    else await this.wakeAt(this.dueAt);
  }

  /** Adds the pending counts to their hours' stored values, in one write. */
  private async write(): Promise<void> {
    if (this.pending.size === 0 || this.closed) return;
    const pending = this.pending;
    this.pending = new Map();
    this.dueAt = null;
    const hours = [...pending.keys()].sort((a, b) => a - b);
    const unread = hours.filter((hour) => hour !== this.newest?.hour).map(hourKey);
    const stored = unread.length > 0 ? await this.storage.get<MetricCounts>(unread) : new Map();
    // The read awaited: the workflow may have been deleted meanwhile.
    if (this.closed) return;
    const batch: Record<string, MetricCounts> = {};
    for (const hour of hours) {
      const before = this.newest?.hour === hour ? this.newest.counts : stored.get(hourKey(hour));
      const added = pending.get(hour) ?? emptyCounts();
      batch[hourKey(hour)] = addCounts(structuredClone(before ?? emptyCounts()), added);
    }
    const last = hours.at(-1) as number;
    const newHour = this.newest === null || last > this.newest.hour;
    if (this.newest === null || last >= this.newest.hour) {
      this.newest = { hour: last, counts: batch[hourKey(last)] as MetricCounts };
    }
    await this.storage.put(batch, { allowUnconfirmed: true });
    // Once an hour at most: the hours past the limit go.
    if (newHour) await this.prune(last - RUNNER_METRICS.keepMs);
  }

  private async prune(before: number): Promise<void> {
    const old = await this.storage.list({ prefix: PREFIX, end: hourKey(before), limit: 128 });
    if (old.size > 0) await this.storage.delete([...old.keys()], { allowUnconfirmed: true });
  }

  /** Counts of the hours in `[from, to)` (epoch ms) per `stepMs` bucket, non-empty ones, oldest first. */
  async buckets(from: number, to: number, stepMs: number): Promise<MetricBucket[]> {
    if (this.pending.size > 0) await this.commit.request(0);
    const stored = await this.storage.list<MetricCounts>({
      prefix: PREFIX,
      start: hourKey(from),
      end: hourKey(to),
    });
    const buckets = new Map<number, MetricCounts>();
    for (const [key, counts] of stored) {
      const hour = Number(key.slice(PREFIX.length));
      const at = from + Math.floor((hour - from) / stepMs) * stepMs;
      buckets.set(at, addCounts(buckets.get(at) ?? emptyCounts(), counts));
    }
    return [...buckets].map(([at, counts]) => ({ at, counts }));
  }

  /** Forgets what is pending, after the object's storage was deleted with its workflow. */
  forget(): void {
    this.closed = true;
    this.pending = new Map();
    this.dueAt = null;
    this.newest = null;
  }
}
