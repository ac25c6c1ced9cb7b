/**
 * The exact sliding-window rate limit of a runner's webhook nodes (docs/scaling.md#rate-limits,
 * docs/scaling.md#rate-limits), counted in memory. A call's accepted time is stored with its
 * request-log entry (docs/webhooks.md#request-log), which the call writes anyway; only a time no
 * entry took within UNLOGGED_MS (a call still running, or one that failed) is written on its own,
 * grouped, as `rl/webhook/<node>/<newest ms>/<n>` (the layout of `RateLimitStore`, which earlier
 * runners wrote for every call). After a restart a node's window is rebuilt from both, so the limit
 * stays exact across restarts (docs/performance.md#counts-per-call).
 */
import { GroupCommit } from "../../platform/group-commit";
import { pad, storedTimes } from "../../platform/rate-limit-store";
import { type RateLimitDecision, SlidingWindowLog } from "../../platform/sliding-window";

const PREFIX = "rl/webhook/";
/** How long an accepted time may wait for its log entry before it is written on its own (ms). */
export const UNLOGGED_MS = 10;
/** Written groups of times between two prunes of the old ones. */
const PRUNE_EVERY = 64;
/** Entries older than this (ms) hold no time inside a webhook node's one-minute window. */
const KEEP_MS = 2 * 60_000;

/** One accepted call's time, until its log entry takes it or it is written on its own. */
export type RateStamp = { nodeKey: string; at: number };

/** Reads the accepted times the request log holds for a node, after `since` (epoch ms). */
export type LoggedTimes = (nodeKey: string, since: number) => Promise<number[]>;

/** The webhook nodes' windows of one runner. */
export class NodeRateLimits {
  private readonly logs = new Map<string, SlidingWindowLog>();
  private readonly loading = new Map<string, Promise<SlidingWindowLog>>();
  /** Accepted times no log entry has taken yet. */
  private readonly unlogged = new Set<RateStamp>();
  /** Times to write with the next write whatever their age (of erased log entries). */
  private kept: RateStamp[] = [];
  private readonly commit = new GroupCommit(() => this.write());
  private sequence = 0;
  private writesSincePrune = 0;
  private closed = false;

  /**
   * @param logged the accepted times the request log holds (see `RequestLog.rateTimes`)
   * @param waitUntil keeps the object alive for a write after the answer
   */
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly logged: LoggedTimes,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  /**
   * Counts one call of `nodeKey` if fewer than `limit` were accepted in the last `windowMs`.
   * @returns the decision and, when accepted, its stamp: give it to `take` as the call is logged
   */
  async attempt(
    nodeKey: string,
    limit: number,
    windowMs: number,
  ): Promise<{ decision: RateLimitDecision; stamp?: RateStamp }> {
    const log = this.logs.get(nodeKey) ?? (await this.load(nodeKey, windowMs));
    const now = Date.now();
    const { evictedBefore: _, ...decision } = log.attempt(now, limit, windowMs);
    if (!decision.allowed) return { decision };
    const stamp = { nodeKey, at: now };
    this.unlogged.add(stamp);
    const first = this.unlogged.size === 1;
    const written = this.commit.request(UNLOGGED_MS);
    if (first) this.waitUntil(written.catch(() => {}));
    return { decision, stamp };
  }

  /**
   * The accepted time a call's log entry stores, or undefined when it was written on its own
   * already (the call took longer than UNLOGGED_MS): a time is stored once.
   */
  take(stamp: RateStamp | undefined): number | undefined {
    if (!stamp || !this.unlogged.delete(stamp)) return undefined;
    return stamp.at;
  }

  /** Writes accepted times that the request log no longer holds (erased entries), grouped. */
  keep(stamps: RateStamp[]): Promise<void> {
    this.kept.push(...stamps);
    return this.commit.request(0);
  }

  /** Forgets everything, after the object's storage was deleted with its workflow. */
  forget(): void {
    this.closed = true;
    this.unlogged.clear();
    this.kept = [];
    this.logs.clear();
  }

  /** A node's window after a start: the times written on their own and the log's. */
  private load(nodeKey: string, windowMs: number): Promise<SlidingWindowLog> {
    let loading = this.loading.get(nodeKey);
    if (!loading) {
      loading = (async () => {
        const cutoff = Date.now() - windowMs;
        const prefix = `${PREFIX}${nodeKey}/`;
        const times = await storedTimes(this.storage, prefix, cutoff);
        times.push(...(await this.logged(nodeKey, cutoff)));
        const log = new SlidingWindowLog(times);
        this.logs.set(nodeKey, log);
        this.waitUntil(this.prune(nodeKey, cutoff));
        return log;
      })();
      this.loading.set(nodeKey, loading);
    }
    return loading;
  }

  /** Writes the times whose log entry did not come within UNLOGGED_MS, one entry per node. */
  private async write(): Promise<void> {
    if (this.closed) return;
    const now = Date.now();
    const due = new Map<string, number[]>();
    const waited = [...this.unlogged].filter((stamp) => now - stamp.at >= UNLOGGED_MS);
    for (const stamp of [...this.kept, ...waited]) {
      this.unlogged.delete(stamp);
      const times = due.get(stamp.nodeKey) ?? [];
      times.push(stamp.at);
      due.set(stamp.nodeKey, times);
    }
    this.kept = [];
    // Times accepted since this write was planned get their own wait.
    if (this.unlogged.size > 0) this.waitUntil(this.commit.request(UNLOGGED_MS).catch(() => {}));
    if (due.size === 0) return;
    const entries: Record<string, number[]> = {};
    for (const [nodeKey, times] of due) {
      times.sort((a, b) => a - b);
      entries[`${PREFIX}${nodeKey}/${pad(times.at(-1) ?? 0)}/${this.sequence++}`] = times;
    }
    await this.storage.put(entries, { allowUnconfirmed: true });
    if (++this.writesSincePrune >= PRUNE_EVERY) {
      this.writesSincePrune = 0;
      for (const nodeKey of due.keys()) await this.prune(nodeKey, now - KEEP_MS);
    }
  }

  /** Deletes a node's entries whose calls are all at or before `before` (ms); never read again. */
  private async prune(nodeKey: string, before: number): Promise<void> {
    const prefix = `${PREFIX}${nodeKey}/`;
    const old = await this.storage.list({ prefix, end: `${prefix}${pad(before + 1)}`, limit: 512 });
    const names = [...old.keys()];
    for (let i = 0; i < names.length; i += 128) {
      await this.storage.delete(names.slice(i, i + 128), { allowUnconfirmed: true });
    }
  }
}
