/**
 * The request log of a workflow's webhook URLs (docs/webhooks.md#request-log): every call answered,
 * refusals included. Kept 7 days or the newest 1,000, whichever is less: reads apply both limits
 * exactly, writes prune now and then. Written grouped and unconfirmed (docs/architecture.md#storage):
 * `rq/<suffix>` holds one write's entries (up to GROUP_MAX, oldest first; an old value, one entry),
 * `rb/<suffix>` a body longer than its preview; suffix `<received ms, 15 digits><n, 3 digits>`.
 */
import { bytesToBase64, randomBase62 } from "../../platform/crypto";
import { GroupCommit } from "../../platform/group-commit";
import { NodeRateLimits } from "./rate-window";
import {
  type LoggedRequest,
  type LoggedRequestDetail,
  previewOf,
  REQUEST_LOG,
  suffixFromId,
} from "./request-log-entry";
import { eraseLogEntries } from "./request-log-erasure";
import { RATE_KEEP_MS, rateTimesIn } from "./request-log-rates";
import { idOnShard } from "./shards";

/**
 * What the log keeps of one call; `rateAt`, the time its node's rate limit counted it (epoch ms,
 * docs/scaling.md#rate-limits), is never shown: a restarted runner rebuilds the window from it.
 */
type StoredEntry = LoggedRequest & { fullBody: boolean; rateAt?: number };
/** A stored value: the entries of one write, oldest first; one entry alone as first written. */
type StoredValue = StoredEntry[] | StoredEntry;
/** A stored value's key and the suffixes of its entries, oldest first. */
type Group = { key: string; suffixes: string[] };
/** A call to record: the entry without id and preview, the body (null: not read), `keepBody`. */
export type CallToLog = Omit<LoggedRequest, "id" | "bodyPreview"> & {
  body: Uint8Array | null;
  keepBody: boolean;
  /** When the node's rate limit counted the call, if no other write keeps that time. */
  rateAt?: number;
};

const ENTRY = "rq/";
const BODY = "rb/";
const PRUNE_EVERY = 128;

/** Entries one stored value holds at most: about 100 KB with full previews, far below 2 MB. */
export const GROUP_MAX = 32;

/** The suffix a key and an id share: time order, then order within the millisecond. */
const suffixOf = (ms: number, n: number) =>
  `${String(ms).padStart(15, "0")}${String(n).padStart(3, "0")}`;
const SUFFIX_LENGTH = 18;
const entriesOf = (value: StoredValue): StoredEntry[] => (Array.isArray(value) ? value : [value]);
const entrySuffix = (entry: StoredEntry) => entry.id.slice(4, 4 + SUFFIX_LENGTH);

/** The runner's request log. */
export class RequestLog {
  private unsaved: { suffix: string; entry: StoredEntry; body: string | Uint8Array | null }[] = [];
  private readonly commit = new GroupCommit(() => this.write());
  private lastMs = 0;
  private inMs = 0;
  /** The stored values, oldest first; read from storage once (`stored`), then kept up to date. */
  private groups: Group[] | null = null;
  private closed = false; // set by `forget`: nothing is written again
  private loading: Promise<Group[]> | null = null;
  private sincePrune = 0;
  /** The age limit: the workspace's `requestLogDays` once known (docs/security.md#retention). */
  private maxAgeMs: number = REQUEST_LOG.maxAgeMs;

  /** The webhook nodes' rate limits, whose counted times the entries keep (`rateAt`). */
  readonly rates: NodeRateLimits;

  /** @param waitUntil keeps the object alive for a write after the answer */
  constructor(
    private readonly storage: DurableObjectStorage,
    waitUntil: (promise: Promise<unknown>) => void = () => {},
  ) {
    const logged = (nodeKey: string, since: number) =>
      rateTimesIn(storage, ENTRY, this.unsaved, { nodeKey, since });
    this.rates = new NodeRateLimits(storage, logged, waitUntil);
  }

  /**
   * Records one call; headers come redacted, a UTF-8 body loses `secrets` before its preview is cut
   * (so no secret is half shown).
   * @param shard the runner shard keeping it, which its id names (docs/scaling.md#runner-shards)
   */
  record(call: CallToLog, secrets: string[], shard = 0): void {
    const ms = Math.max(call.receivedAt, this.lastMs);
    this.inMs = ms === this.lastMs ? this.inMs + 1 : 0;
    this.lastMs = ms;
    // More than 1,000 calls in one millisecond would reuse a key; the next millisecond is taken.
    if (this.inMs > 999) {
      this.lastMs++;
      this.inMs = 0;
    }
    const suffix = suffixOf(this.lastMs, this.inMs);
    const { body, keepBody, rateAt, ...shown } = call;
    const { text, preview } = previewOf(body, secrets);
    const fullBody =
      keepBody && body !== null && (body.byteLength > REQUEST_LOG.previewBytes || text === null);
    const entry: StoredEntry = {
      ...shown,
      ...(rateAt !== undefined ? { rateAt } : {}),
      id: idOnShard(`whr_${suffix}${randomBase62(6)}`, shard),
      bodyPreview: preview,
      fullBody,
    };
    this.unsaved.push({ suffix, entry, body: fullBody ? (text ?? body) : null });
    void this.commit.request(REQUEST_LOG.writeBatchMs).catch(() => {});
  }

  private async write(): Promise<void> {
    if (this.unsaved.length === 0 || this.closed) return;
    const pending = this.unsaved;
    this.unsaved = [];
    const batch: Record<string, unknown> = {};
    const written: Group[] = [];
    for (let i = 0; i < pending.length; i += GROUP_MAX) {
      const part = pending.slice(i, i + GROUP_MAX);
      const key = `${ENTRY}${part[0]?.suffix}`;
      batch[key] = part.map((item) => item.entry);
      for (const item of part) if (item.body !== null) batch[`${BODY}${item.suffix}`] = item.body;
      written.push({ key, suffixes: part.map((item) => item.suffix) });
    }
    this.groups?.push(...written);
    await this.storage.put(batch, { allowUnconfirmed: true });
    this.sincePrune += pending.length;
    if (this.sincePrune >= PRUNE_EVERY) {
      this.sincePrune = 0;
      await this.prune(Date.now());
    }
  }

  /** The stored values, oldest first, read from storage on first use. */
  private stored(): Promise<Group[]> {
    this.loading ??= (async () => {
      // Values written while storage is listed join the list afterwards.
      const meanwhile: Group[] = [];
      this.groups = meanwhile;
      const values = await this.storage.list<StoredValue>({ prefix: ENTRY });
      const listed = [...values].map(([key, value]) => ({
        key,
        suffixes: entriesOf(value).map(entrySuffix),
      }));
      const seen = new Set(listed.map((group) => group.key));
      const groups = [...listed, ...meanwhile.filter((group) => !seen.has(group.key))];
      groups.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      this.groups = groups;
      return groups;
    })();
    return this.loading.then(() => this.groups ?? []);
  }

  /** The suffix of the oldest entry shown at `now`, by age and by count. */
  private floor(groups: Group[], now: number): string {
    const byAge = suffixOf(now - this.maxAgeMs, 0);
    let newer = 0;
    for (let g = groups.length - 1; g >= 0; g--) {
      const suffixes = groups[g]?.suffixes ?? [];
      if (newer + suffixes.length >= REQUEST_LOG.maxEntries) {
        const byCount = suffixes[suffixes.length - (REQUEST_LOG.maxEntries - newer)] ?? "";
        return byCount > byAge ? byCount : byAge;
      }
      newer += suffixes.length;
    }
    return byAge;
  }

  /**
   * Deletes the values whose entries are all past the retention limits (and RATE_KEEP_MS old), with
   * their bodies.
   * @returns the oldest suffix still shown (`floor`), which the deletion does not move
   */
  private async prune(now: number): Promise<string> {
    const groups = await this.stored();
    const floor = this.floor(groups, now);
    const forRates = suffixOf(now - RATE_KEEP_MS, 0);
    const below = forRates < floor ? forRates : floor;
    let drop = 0;
    while (drop < groups.length && (groups[drop]?.suffixes.at(-1) ?? "") < below) drop++;
    const keys = groups
      .splice(0, drop)
      .flatMap((group) => [group.key, ...group.suffixes.map((suffix) => BODY + suffix)]);
    for (let i = 0; i < keys.length; i += 128) {
      await this.storage.delete(keys.slice(i, i + 128), { allowUnconfirmed: true });
    }
    return floor;
  }

  /**
   * Deletes the entries that carry a person whose data is erased (docs/security.md#erasure).
   * @returns how many were deleted
   */
  async erase(carries: (text: string) => boolean): Promise<number> {
    const now = Date.now();
    await this.settled(now);
    const keys = { entry: ENTRY, body: BODY };
    const counted: { nodeKey: string; at: number }[] = [];
    const erased = await eraseLogEntries(this.storage, keys, entrySuffix, carries, (entry) => {
      // A rate-limit window still counts the call: its time is written on its own.
      if (entry.rateAt !== undefined && entry.rateAt > now - RATE_KEEP_MS)
        counted.push({ nodeKey: entry.nodeKey, at: entry.rateAt });
    });
    if (counted.length > 0) await this.rates.keep(counted);
    this.groups = null; // read again on next use: values may have gone
    this.loading = null;
    return erased;
  }

  /** Sets the age limit (ms): the workspace's `requestLogDays` (docs/security.md#retention). */
  setMaxAge(ms: number): void {
    this.maxAgeMs = ms;
  }

  /** Deletes what is past the limits now (the daily sweep of an idle runner). */
  async sweep(now: number): Promise<void> {
    await this.settled(now);
  }

  /** Forgets what is pending, after the object's storage was deleted with its workflow. */
  forget(): void {
    this.closed = true;
    this.rates.forget();
    this.unsaved = [];
    this.groups = null;
    this.loading = null;
  }

  /** Writes what is pending and prunes, so a read sees every call before it; returns `floor`. */
  private async settled(now: number): Promise<string> {
    if (this.unsaved.length > 0) await this.commit.request(0);
    return this.prune(now);
  }

  /**
   * Entries newest first, within the retention limits.
   * @param outcome only entries with this outcome
   * @param before an entry id, the cursor; whole ids are compared so a list merged over shards
   * goes on exactly where it stopped when entries share a millisecond
   */
  async list(
    limit: number,
    options: { outcome?: string; before?: string; now?: number } = {},
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
    const floor = await this.settled(options.now ?? Date.now());
    const { before: cursor, outcome } = options;
    const before = cursor ? suffixFromId(cursor) : null;
    const data: LoggedRequest[] = [];
    // The cursor's value comes in too (its newer entries are skipped by id); a value holds at
    // least one entry, so `limit + 2` values fill a page; a filtered list reads on.
    let end = before !== null ? `${ENTRY}${before}\u0000` : undefined;
    const pageSize = outcome ? 256 : limit + 2;
    for (;;) {
      const values = await this.storage.list<StoredValue>({
        prefix: ENTRY,
        ...(end !== undefined ? { end } : {}),
        reverse: true,
        limit: pageSize,
      });
      for (const [key, value] of values) {
        end = key;
        const entries = entriesOf(value);
        for (let i = entries.length - 1; i >= 0; i--) {
          const entry = entries[i] as StoredEntry;
          if (entrySuffix(entry) < floor) return { data, hasMore: false };
          if (cursor && entry.id >= cursor) continue;
          if (outcome && entry.outcome !== outcome) continue;
          if (data.length === limit) return { data, hasMore: true };
          const { fullBody: _, rateAt: __, ...shown } = entry;
          data.push(shown);
        }
      }
      if (values.size < pageSize) return { data, hasMore: false };
    }
  }

  /** One entry with its whole body (text, or base64 when not UTF-8), or null. */
  async get(id: string, now = Date.now()): Promise<LoggedRequestDetail | null> {
    const floor = await this.settled(now);
    const suffix = suffixFromId(id);
    if (suffix === null || suffix < floor) return null;
    // The value holding it is the newest whose key is not after its suffix.
    const values = await this.storage.list<StoredValue>({
      prefix: ENTRY,
      end: `${ENTRY}${suffix}\u0000`,
      reverse: true,
      limit: 1,
    });
    const entry = [...values.values()].flatMap(entriesOf).find((stored) => stored.id === id);
    if (!entry) return null;
    const { fullBody, rateAt: _, ...shown } = entry;
    if (!fullBody) return { ...shown, body: entry.bodyPreview, bodyEncoding: "utf8" };
    const body = await this.storage.get<string | Uint8Array>(`${BODY}${suffix}`);
    if (body === undefined) return { ...shown, body: null, bodyEncoding: "utf8" };
    return typeof body === "string"
      ? { ...shown, body, bodyEncoding: "utf8" }
      : { ...shown, body: bytesToBase64(body), bodyEncoding: "base64" };
  }
}
