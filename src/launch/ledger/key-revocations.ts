/**
 * Which widget keys are revoked (docs/architecture.md#link-ledger): read from D1 once per key, kept
 * right since every revocation runs through the ledger.
 */
import { and, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { widgetKeys } from "../../db/schema";

/** Which widget keys are revoked. */
export class KeyRevocations {
  private readonly revoked = new Map<string, boolean>();
  /** Bumped by `clear`, so a read that started before it is not kept. */
  private epoch = 0;

  constructor(private readonly db: DrizzleD1Database) {}

  /** Whether the key is revoked, when known without reading D1; undefined otherwise. */
  known(keyId: string): boolean | undefined {
    return this.revoked.get(keyId);
  }

  /** Whether the key is revoked, or unknown (treated alike); read from D1 once per key. */
  async isRevoked(keyId: string): Promise<boolean> {
    const known = this.revoked.get(keyId);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    const row = await this.db
      .select({ revokedAt: widgetKeys.revokedAt })
      .from(widgetKeys)
      .where(eq(widgetKeys.id, keyId))
      .get();
    // A revocation made while this read was in flight has set the map already; it wins.
    const revoked = this.revoked.get(keyId) ?? (!row || row.revokedAt !== null);
    if (epoch === this.epoch) this.revoked.set(keyId, revoked);
    return revoked;
  }

  /** Forgets what it knows (the workspace was deleted): each key is read from D1 again. */
  clear(): void {
    this.epoch++;
    this.revoked.clear();
  }

  /** Revokes a key in D1, refused from the next call; false for a key the workspace lacks. */
  async revoke(workspaceId: string, keyId: string, revokedAt: number): Promise<boolean> {
    const row = await this.db
      .select({ revokedAt: widgetKeys.revokedAt })
      .from(widgetKeys)
      .where(and(eq(widgetKeys.id, keyId), eq(widgetKeys.workspaceId, workspaceId)))
      .get();
    if (!row) return false;
    this.revoked.set(keyId, true);
    if (row.revokedAt === null) {
      await this.db.update(widgetKeys).set({ revokedAt }).where(eq(widgetKeys.id, keyId));
    }
    return true;
  }
}
