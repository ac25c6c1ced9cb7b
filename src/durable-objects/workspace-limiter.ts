/**
 * WorkspaceLimiter: one SQLite-backed Durable Object per workspace (named by workspace id).
 *
 * Responsibilities:
 * - Rate limit: an exact sliding-window log per widget key (spec 8, contract 3), persisted in the
 *   object's SQLite so a restart forgets nothing. In-memory logs are a cache of that table.
 * - Pending-link cap: the set of pending, unexpired links of the workspace. Every change that adds or
 *   removes a pending link (create, revoke, open) runs through this object, which reserves the slot
 *   synchronously before writing D1, so concurrent creates can never pass the cap. The set is rebuilt
 *   from D1 each time the object starts, so after any restart the count equals what D1 holds.
 */
import { DurableObject } from "cloudflare:workers";
import { and, eq, gt, ne } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { links, type NewLink } from "../db/schema";
import type { AppBindings } from "../env";
import { launchLimits } from "../lib/limits";
import { type RateLimitDecision, SlidingWindowLog } from "../lib/sliding-window";

export type CreatePendingLinkResult = { created: true } | { created: false; pendingLinks: number };

export class WorkspaceLimiter extends DurableObject<AppBindings> {
  private readonly sql: SqlStorage;
  private readonly logs = new Map<string, SlidingWindowLog>();
  private pendingCount = 0;
  private acceptedSincePrune = 0;
  private loaded: Promise<void> | undefined;

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS rate_events (key_id TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS rate_events_key_at ON rate_events (key_id, at);
      CREATE TABLE IF NOT EXISTS pending_links (link_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS pending_links_expiry ON pending_links (expires_at);`);
  }

  /**
   * Counts one call of a widget key against its limit, unless the limit is reached.
   * Rejected calls are not counted (contract 3: "accepted calls").
   * @param keyId widget key record id (`wk_…`)
   */
  consumeRateLimit(keyId: string): RateLimitDecision {
    const { rateLimitPerWindow, rateLimitWindowMs } = launchLimits(this.env);
    const now = Date.now();
    let log = this.logs.get(keyId);
    if (!log) {
      const rows = this.sql
        .exec<{ at: number }>(
          "SELECT at FROM rate_events WHERE key_id = ? AND at > ? ORDER BY at",
          keyId,
          now - rateLimitWindowMs,
        )
        .toArray();
      log = new SlidingWindowLog(rows.map((row) => row.at));
      this.logs.set(keyId, log);
    }
    const { evictedBefore, ...decision } = log.attempt(now, rateLimitPerWindow, rateLimitWindowMs);
    if (decision.allowed) {
      this.sql.exec("INSERT INTO rate_events (key_id, at) VALUES (?, ?)", keyId, now);
    }
    // Events older than the window are never read again; clear them out now and then.
    if (decision.allowed && ++this.acceptedSincePrune >= 1024) {
      this.acceptedSincePrune = 0;
      this.sql.exec("DELETE FROM rate_events WHERE at <= ?", evictedBefore);
    }
    return decision;
  }

  /**
   * Inserts a new pending link into D1 if the workspace has a free pending slot.
   * The slot is taken before the D1 write and given back if the write fails.
   * @returns `{created:false, pendingLinks}` when the cap is reached (the caller answers 409).
   */
  async createPendingLink(link: NewLink): Promise<CreatePendingLinkResult> {
    await this.load(link.workspaceId);
    const { maxPendingLinks } = launchLimits(this.env);
    const now = Date.now();
    this.pruneExpired(now);
    if (this.pendingCount >= maxPendingLinks) {
      return { created: false, pendingLinks: this.pendingCount };
    }
    this.addPending(link.id, link.expiresAt);
    try {
      await drizzle(this.env.DB).insert(links).values(link);
    } catch (error) {
      this.removePending(link.id);
      throw error;
    }
    return { created: true };
  }

  /**
   * Marks a link revoked in D1 (from any state) and frees its pending slot if it held one.
   * Idempotent: revoking a revoked link changes nothing.
   */
  async revokeLink(workspaceId: string, linkId: string): Promise<void> {
    await this.load(workspaceId);
    await drizzle(this.env.DB)
      .update(links)
      .set({ status: "revoked", revokedAt: Date.now() })
      .where(
        and(eq(links.id, linkId), eq(links.workspaceId, workspaceId), ne(links.status, "revoked")),
      );
    this.removePending(linkId);
  }

  /**
   * Moves a pending, unexpired link to active with its conversation session, freeing its slot.
   * @returns true when this call opened the link; false when it was not pending or has expired.
   */
  async activateLink(
    workspaceId: string,
    linkId: string,
    sessionId: string,
    startedAt: number,
  ): Promise<boolean> {
    await this.load(workspaceId);
    const result = await drizzle(this.env.DB)
      .update(links)
      .set({ status: "active", sessionId, startedAt })
      .where(
        and(
          eq(links.id, linkId),
          eq(links.workspaceId, workspaceId),
          eq(links.status, "pending"),
          gt(links.expiresAt, startedAt),
        ),
      );
    const opened = result.meta.changes === 1;
    if (opened) this.removePending(linkId);
    return opened;
  }

  /** Pending, unexpired links of the workspace right now. */
  async pendingLinkCount(workspaceId: string): Promise<number> {
    await this.load(workspaceId);
    this.pruneExpired(Date.now());
    return this.pendingCount;
  }

  /** Rebuilds the pending set from D1 once per object lifetime; concurrent callers share the load. */
  private load(workspaceId: string): Promise<void> {
    this.loaded ??= this.ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      const rows = await drizzle(this.env.DB)
        .select({ id: links.id, expiresAt: links.expiresAt })
        .from(links)
        .where(
          and(
            eq(links.workspaceId, workspaceId),
            eq(links.status, "pending"),
            gt(links.expiresAt, now),
          ),
        );
      this.ctx.storage.transactionSync(() => {
        this.sql.exec("DELETE FROM pending_links");
        for (const row of rows) {
          this.sql.exec(
            "INSERT INTO pending_links (link_id, expires_at) VALUES (?, ?)",
            row.id,
            row.expiresAt,
          );
        }
      });
      this.pendingCount = rows.length;
    });
    // A failed load (D1 unreachable) must not stick: the next call tries again.
    this.loaded.catch(() => {
      this.loaded = undefined;
    });
    return this.loaded;
  }

  private addPending(linkId: string, expiresAt: number): void {
    this.sql.exec(
      "INSERT INTO pending_links (link_id, expires_at) VALUES (?, ?)",
      linkId,
      expiresAt,
    );
    this.pendingCount++;
  }

  // `rowsWritten` also counts index writes, so deleted rows are counted through RETURNING.
  private removePending(linkId: string): void {
    const deleted = this.sql.exec(
      "DELETE FROM pending_links WHERE link_id = ? RETURNING link_id",
      linkId,
    );
    this.pendingCount -= deleted.toArray().length;
  }

  private pruneExpired(now: number): void {
    const deleted = this.sql.exec(
      "DELETE FROM pending_links WHERE expires_at <= ? RETURNING link_id",
      now,
    );
    this.pendingCount -= deleted.toArray().length;
  }
}
