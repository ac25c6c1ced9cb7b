/** A conversation's newest messages in memory while awake (docs/performance.md#counts-per-call). */
import type { StoredMessage } from "./contract";

/** Characters the tail holds at most: with blocks, a few hundred KiB of a shared isolate. */
export const RECENT_MAX_CHARS = 128 * 1024;

/** A conversation's newest messages, oldest first, bounded in count and in characters. */
export class RecentMessages {
  private readonly items: StoredMessage[] = [];
  private chars = 0;

  /**
   * @param loaded the newest messages as stored, oldest first, blocks included
   * @param maxCount the most messages held (what the reply reads)
   * @param complete whether `loaded` is the whole history
   */
  constructor(
    loaded: StoredMessage[],
    private readonly maxCount: number,
    private complete: boolean,
  ) {
    for (const message of loaded) this.add(message);
  }

  /** Appends a message just stored; the oldest leave past either bound, never the newest. */
  add(message: StoredMessage): void {
    this.items.push(message);
    this.chars += message.text.length;
    while (
      this.items.length > 1 &&
      (this.items.length > this.maxCount || this.chars > RECENT_MAX_CHARS)
    ) {
      const oldest = this.items.shift();
      this.chars -= oldest?.text.length ?? 0;
      this.complete = false;
    }
  }

  /** The newest `limit` messages oldest first (-1: all), or null when storage must answer. */
  newest(limit: number): StoredMessage[] | null {
    if (limit < 0) return this.complete ? this.items.slice() : null;
    if (limit > this.items.length && !this.complete) return null;
    return limit === 0 ? [] : this.items.slice(-limit);
  }

  /** Times (epoch ms, oldest first) of the person's messages after `since`, or null if not held. */
  personTimesSince(since: number): number[] | null {
    const oldest = this.items[0];
    if (!this.complete && (oldest === undefined || oldest.at > since)) return null;
    return this.items.filter((m) => m.role === "person" && m.at > since).map((m) => m.at);
  }
}
