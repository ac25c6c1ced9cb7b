/**
 * The request log of a workflow's webhook URLs (docs/webhooks.md#request-log): every call the
 * runner answered, refusals included, with its outcome, the answer's status, the headers (secrets
 * redacted) and the body. Kept 7 days or the newest 1,000 entries, whichever is less: reads apply
 * both limits exactly, writes prune the rest now and then.
 *
 * Entries are written like the rate-limit log, grouped and unconfirmed (`GroupCommit`), so no
 * answer waits for the disk. Keys are `rq/<received ms, 15 digits><n, 3 digits>` (time order) and,
 * for a body longer than its preview, `rb/<same>` with the bytes.
 */
import { bytesToBase64, randomBase62 } from "../../platform/crypto";
import { GroupCommit } from "../../platform/group-commit";
import { redactPrepared } from "../../workflow/redact";
import { type LoggedRequest, type LoggedRequestDetail, REQUEST_LOG } from "./request-log-entry";
import { idOnShard } from "./shards";

/** What the log keeps of one call. */
type StoredEntry = LoggedRequest & { fullBody: boolean };
/**
 * A call to record: the entry without its id and preview, the body's bytes (null: not read), and
 * whether to keep the whole body beyond its preview.
 */
export type CallToLog = Omit<LoggedRequest, "id" | "bodyPreview"> & {
  body: Uint8Array | null;
  keepBody: boolean;
};

const ENTRY = "rq/";
const BODY = "rb/";
const PRUNE_EVERY = 128;
const fatalUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

/** The suffix a key and an id share: time order, then order within the millisecond. */
const suffixOf = (ms: number, n: number) =>
  `${String(ms).padStart(15, "0")}${String(n).padStart(3, "0")}`;
const SUFFIX_LENGTH = 18;

/** The runner's request log. */
export class RequestLog {
  private unsaved = new Map<string, unknown>();
  private readonly commit = new GroupCommit(() => this.write());
  private lastMs = 0;
  private inMs = 0;
  /** Suffixes of the stored entries, oldest first; read from storage at the first prune. */
  private suffixes: string[] | null = null;
  private sincePrune = 0;

  constructor(private readonly storage: DurableObjectStorage) {}

  /**
   * Records one call. Header values are expected redacted already (`redactHeaders`); a UTF-8 body
   * loses every secret value in `secrets` (prepared by `secretsForRedaction`) before its preview
   * is cut, so no secret is half shown. The whole body is kept only when `keepBody`.
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
    const { body, keepBody, ...rest } = call;
    const decoded = body ? decodeStrict(body) : null;
    const text = decoded === null ? null : redactPrepared(decoded, secrets);
    const bytes =
      text === null
        ? body
        : text.length * 3 <= REQUEST_LOG.previewBytes
          ? null
          : // A character is at least a byte: this prefix holds the preview, without encoding 1 MiB.
            encoder.encode(text.slice(0, REQUEST_LOG.previewBytes));
    // A streaming decode leaves out a character cut in half by the preview's end.
    const preview =
      bytes === null
        ? (text ?? "")
        : new TextDecoder().decode(bytes.subarray(0, REQUEST_LOG.previewBytes), { stream: true });
    const fullBody =
      keepBody && body !== null && (body.byteLength > REQUEST_LOG.previewBytes || text === null);
    const entry: StoredEntry = {
      ...rest,
      id: idOnShard(`whr_${suffix}${randomBase62(6)}`, shard),
      bodyPreview: preview,
      fullBody,
    };
    this.unsaved.set(`${ENTRY}${suffix}`, entry);
    if (fullBody) this.unsaved.set(`${BODY}${suffix}`, text ?? body);
    this.suffixes?.push(suffix);
    void this.commit.request(REQUEST_LOG.writeBatchMs).catch(() => {});
  }

  private async write(): Promise<void> {
    if (this.unsaved.size === 0) return;
    const batch = Object.fromEntries(this.unsaved);
    this.unsaved = new Map();
    await this.storage.put(batch, { allowUnconfirmed: true });
    this.sincePrune += Object.keys(batch).length;
    if (this.sincePrune >= PRUNE_EVERY) {
      this.sincePrune = 0;
      await this.prune(Date.now());
    }
  }

  /** Deletes entries older than the age limit or beyond the newest `maxEntries`. */
  private async prune(now: number): Promise<void> {
    if (this.suffixes === null) {
      // Calls recorded while the keys are read join them afterwards.
      this.suffixes = [];
      const keys = await this.storage.list({ prefix: ENTRY });
      const stored = [...keys.keys()].map((key) => key.slice(ENTRY.length));
      this.suffixes = [...new Set([...stored, ...this.suffixes])].sort();
    }
    const oldest = suffixOf(now - REQUEST_LOG.maxAgeMs, 0);
    const over = Math.max(0, this.suffixes.length - REQUEST_LOG.maxEntries);
    let drop = over;
    while (drop < this.suffixes.length && (this.suffixes[drop] ?? "") < oldest) drop++;
    const gone = this.suffixes.splice(0, drop);
    for (let i = 0; i < gone.length; i += 64) {
      const keys = gone.slice(i, i + 64).flatMap((suffix) => [ENTRY + suffix, BODY + suffix]);
      await this.storage.delete(keys, { allowUnconfirmed: true });
    }
  }

  /** Forgets what is pending, after the object's storage was deleted with its workflow. */
  forget(): void {
    this.unsaved.clear();
    this.suffixes = null;
  }

  /** Writes what is pending and prunes, so a read sees every call answered before it, and no more. */
  private async settled(now: number): Promise<void> {
    if (this.unsaved.size > 0) await this.commit.request(0);
    await this.prune(now);
  }

  /**
   * Entries newest first, within the retention limits.
   * @param outcome only entries with this outcome
   * @param before an entry id: only entries whose id sorts before it (the page cursor). Ids sort
   * in time order; comparing whole ids, not just their time, lets a list merged over shards,
   * whose entries may share a millisecond, go on exactly where it stopped.
   */
  async list(
    limit: number,
    options: { outcome?: string; before?: string; now?: number } = {},
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
    const now = options.now ?? Date.now();
    await this.settled(now);
    const oldest = `${ENTRY}${suffixOf(now - REQUEST_LOG.maxAgeMs, 0)}`;
    const { before: cursor } = options;
    const before = cursor ? suffixFromId(cursor) : null;
    const data: LoggedRequest[] = [];
    // Storage holds just the log now (pruned above): unfiltered, a page reads one page; filtered,
    // at most the whole log.
    const scanned = await this.storage.list<StoredEntry>({
      prefix: ENTRY,
      start: oldest,
      // This shard's own entry of that millisecond comes in too, and is left out by its id below.
      ...(before !== null ? { end: `${ENTRY}${before}\u0000` } : {}),
      reverse: true,
      limit: options.outcome ? REQUEST_LOG.maxEntries : limit + 2,
    });
    for (const entry of scanned.values()) {
      if (cursor && entry.id >= cursor) continue;
      if (options.outcome && entry.outcome !== options.outcome) continue;
      if (data.length === limit) return { data, hasMore: true };
      const { fullBody: _, ...shown } = entry;
      data.push(shown);
    }
    return { data, hasMore: false };
  }

  /** One entry with its whole body (text, or base64 when not UTF-8), or null. */
  async get(id: string, now = Date.now()): Promise<LoggedRequestDetail | null> {
    await this.settled(now);
    const suffix = suffixFromId(id);
    if (suffix === null || suffix < suffixOf(now - REQUEST_LOG.maxAgeMs, 0)) return null;
    const entry = await this.storage.get<StoredEntry>(`${ENTRY}${suffix}`);
    if (!entry || entry.id !== id) return null;
    const { fullBody, ...shown } = entry;
    if (!fullBody) return { ...shown, body: entry.bodyPreview, bodyEncoding: "utf8" };
    const body = await this.storage.get<string | Uint8Array>(`${BODY}${suffix}`);
    if (body === undefined) return { ...shown, body: null, bodyEncoding: "utf8" };
    return typeof body === "string"
      ? { ...shown, body, bodyEncoding: "utf8" }
      : { ...shown, body: bytesToBase64(body), bodyEncoding: "base64" };
  }
}

function decodeStrict(bytes: Uint8Array): string | null {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return null;
  }
}

function suffixFromId(id: string): string | null {
  const suffix = id.slice(4, 4 + SUFFIX_LENGTH);
  return id.startsWith("whr_") && /^\d{18}$/.test(suffix) ? suffix : null;
}
