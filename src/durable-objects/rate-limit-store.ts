/**
 * The rate-limit half of the WorkspaceLimiter: an exact sliding-window log per widget key, kept in
 * memory and persisted in the object's storage (one entry per accepted call, `rl/<key>/<ms>/<n>`),
 * so a restart or an eviction forgets nothing (spec 8, contract 3).
 *
 * Writes are grouped and unconfirmed: the first accepted call is written at once, calls accepted
 * while that write is being made durable go out together in the next `put`, and no reply waits
 * for the disk. Only a crash can forget the calls of its last few milliseconds.
 */
import { type RateLimitDecision, SlidingWindowLog } from "../lib/sliding-window";

const PREFIX = "rl/";
const PRUNE_EVERY = 1024;
const pad = (ms: number) => String(ms).padStart(15, "0");

export class RateLimitStore {
  private readonly logs = new Map<string, SlidingWindowLog>();
  private unsaved: Record<string, number> = {};
  private saving = false;
  private sequence = 0;
  private acceptedSincePrune = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  /** Counts one call of `keyId` if fewer than `limit` were accepted in the last `windowMs`. */
  async attempt(keyId: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = Date.now();
    const log = this.logs.get(keyId) ?? (await this.load(keyId, now, windowMs));
    const { evictedBefore, ...decision } = log.attempt(now, limit, windowMs);
    if (!decision.allowed) return decision;
    this.save(`${PREFIX}${keyId}/${pad(now)}/${this.sequence++}`);
    if (++this.acceptedSincePrune >= PRUNE_EVERY) {
      this.acceptedSincePrune = 0;
      for (const seen of this.logs.keys()) this.waitUntil(this.prune(seen, evictedBefore));
    }
    return decision;
  }

  private async load(keyId: string, now: number, windowMs: number): Promise<SlidingWindowLog> {
    const prefix = `${PREFIX}${keyId}/`;
    const cutoff = now - windowMs;
    const stored = await this.storage.list({ prefix, start: `${prefix}${pad(cutoff + 1)}` });
    const times = [...stored.keys()].map((name) =>
      Number(name.slice(prefix.length, prefix.length + 15)),
    );
    // Another call may have loaded the log while this one awaited storage.
    const log = this.logs.get(keyId) ?? new SlidingWindowLog(times);
    if (!this.logs.has(keyId)) {
      this.logs.set(keyId, log);
      this.waitUntil(this.prune(keyId, cutoff));
    }
    return log;
  }

  private save(name: string): void {
    this.unsaved[name] = 1;
    if (this.saving) return;
    this.saving = true;
    this.waitUntil(
      (async () => {
        try {
          while (Object.keys(this.unsaved).length > 0) {
            const entries = this.unsaved;
            this.unsaved = {};
            await this.storage.put(entries, { allowUnconfirmed: true });
            await this.storage.sync();
          }
        } finally {
          this.saving = false;
        }
      })(),
    );
  }

  /** Deletes a key's stored calls at or before `before` (ms); they are never read again. */
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
