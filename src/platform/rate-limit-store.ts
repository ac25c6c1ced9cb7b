/**
 * An exact sliding-window log per key (a widget key, or a webhook node), kept in memory and
 * persisted in the object's storage so a restart or an eviction forgets nothing
 * (docs/api/launch.md#rate-limit). Written grouped and unconfirmed, one entry per key per write,
 * `rl/<key>/<newest ms>/<n>` listing its calls' times (why: docs/architecture.md#storage).
 */
import { GroupCommit } from "./group-commit";
import { type RateLimitDecision, SlidingWindowLog } from "./sliding-window";

const PREFIX = "rl/";
const PRUNE_EVERY = 1024;
/** Accepted calls gather this long (ms) before their write (docs/performance.md). */
const WRITE_BATCH_MS = 10;
/** An entry name's time: epoch ms padded to 15 digits, so names sort by time. */
export const pad = (ms: number) => String(ms).padStart(15, "0");

/**
 * The call times (epoch ms) after `cutoff` stored under `prefix` (`<prefix><newest ms>/<n>`
 * entries, each a list of times; a plain number is one call at the name's time, the format before
 * entries were grouped). Shared with the webhook runner's window (workflows/runner/rate-window.ts).
 */
export async function storedTimes(
  storage: DurableObjectStorage,
  prefix: string,
  cutoff: number,
): Promise<number[]> {
  // An entry's name carries its newest time, so older entries hold nothing inside the window.
  const stored = await storage.list<number[] | number>({
    prefix,
    start: `${prefix}${pad(cutoff + 1)}`,
  });
  const times: number[] = [];
  for (const [name, value] of stored) {
    if (Array.isArray(value)) times.push(...value.filter((ms) => ms > cutoff));
    else times.push(Number(name.slice(prefix.length, prefix.length + 15)));
  }
  return times;
}

/** Exact sliding-window rate limits per key, in memory and in the object's storage. */
export class RateLimitStore {
  private readonly logs = new Map<string, SlidingWindowLog>();
  /** Accepted call times (ms) not yet written, by key. */
  private unsaved = new Map<string, number[]>();
  private readonly commit = new GroupCommit(() => this.write());
  private sequence = 0;
  private acceptedSincePrune = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  /** Counts one call of `keyId` if fewer than `limit` were accepted in the last `windowMs`. */
  async attempt(keyId: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const loaded = this.attemptLoaded(keyId, limit, windowMs);
    if (loaded) return loaded;
    const now = Date.now();
    return this.decide(keyId, await this.load(keyId, now, windowMs), now, limit, windowMs);
  }

  /**
   * `attempt` without awaiting, when the key's log is in memory (every call after its first):
   * undefined, and nothing counted, when it is not.
   */
  attemptLoaded(keyId: string, limit: number, windowMs: number): RateLimitDecision | undefined {
    const log = this.logs.get(keyId);
    return log && this.decide(keyId, log, Date.now(), limit, windowMs);
  }

  private decide(
    keyId: string,
    log: SlidingWindowLog,
    now: number,
    limit: number,
    windowMs: number,
  ): RateLimitDecision {
    const { evictedBefore, ...decision } = log.attempt(now, limit, windowMs);
    if (!decision.allowed) return decision;
    this.save(keyId, now);
    if (++this.acceptedSincePrune >= PRUNE_EVERY) {
      this.acceptedSincePrune = 0;
      for (const seen of this.logs.keys()) this.waitUntil(this.prune(seen, evictedBefore));
    }
    return decision;
  }

  /** Writes the calls accepted so far now; resolves once they are written. */
  flush(): Promise<void> {
    return this.commit.request(0);
  }

  private async load(keyId: string, now: number, windowMs: number): Promise<SlidingWindowLog> {
    const prefix = `${PREFIX}${keyId}/`;
    const cutoff = now - windowMs;
    const times = await storedTimes(this.storage, prefix, cutoff);
    // Another call may have loaded the log while this one awaited storage.
    const log = this.logs.get(keyId) ?? new SlidingWindowLog(times);
    if (!this.logs.has(keyId)) {
      this.logs.set(keyId, log);
      // After the first batch is written, so the prune never races it (and costs the same rows).
      const pruned = this.commit.request(WRITE_BATCH_MS).then(() => this.prune(keyId, cutoff));
      this.waitUntil(pruned);
    }
    return log;
  }

  private save(keyId: string, at: number): void {
    const first = this.unsaved.size === 0;
    const pending = this.unsaved.get(keyId);
    if (pending) pending.push(at);
    else this.unsaved.set(keyId, [at]);
    // Every call of a batch shares its write; the object is kept alive for it once.
    const written = this.commit.request(WRITE_BATCH_MS);
    if (first) this.waitUntil(written);
  }

  /** Writes every call accepted since the last write, one entry per key. */
  private async write(): Promise<void> {
    if (this.unsaved.size === 0) return;
    const entries: Record<string, number[]> = {};
    for (const [keyId, times] of this.unsaved) {
      const newest = times[times.length - 1] ?? 0;
      entries[`${PREFIX}${keyId}/${pad(newest)}/${this.sequence++}`] = times;
    }
    this.unsaved = new Map();
    await this.storage.put(entries, { allowUnconfirmed: true });
    await this.storage.sync();
  }

  /** Deletes a key's entries whose calls are all at or before `before` (ms); never read again. */
  private async prune(keyId: string, before: number): Promise<void> {
    const prefix = `${PREFIX}${keyId}/`;
    const old = await this.storage.list({
      prefix,
      end: `${prefix}${pad(before + 1)}`,
      limit: 4096,
    });
    const names = [...old.keys()];
    for (let i = 0; i < names.length; i += 128) {
      await this.storage.delete(names.slice(i, i + 128), { allowUnconfirmed: true });
    }
  }
}
