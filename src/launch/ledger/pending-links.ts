/** The pending-link cap's set, rebuilt from D1 after each start (docs/api/launch.md#pending-links). */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { loadPendingLinks } from "../link-rules";
import { ExpiringSet } from "./expiring-set";

/** An `ExpiringSet` of link ids that loads itself from D1 once per object lifetime. */
export class PendingLinks extends ExpiringSet {
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly db: DrizzleD1Database,
  ) {
    super();
  }

  /** Rebuilds the set from D1 once per object lifetime; concurrent callers share the load. */
  load(workspaceId: string): Promise<void> {
    if (this.loaded) return this.loaded;
    const loading = this.ctx.blockConcurrencyWhile(async () => {
      const rows = await loadPendingLinks(this.db, workspaceId, Date.now());
      this.clear();
      for (const row of rows) this.add(row.id, row.expiresAt);
    });
    // A failed load (D1 unreachable) must not stick: the next call tries again.
    loading.catch(() => {
      this.loaded = undefined;
    });
    this.loaded = loading;
    return loading;
  }
}
