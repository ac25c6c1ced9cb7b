/**
 * Credential checks (docs/security.md#credentials, docs/api/manage.md). Only SHA-256 digests are stored; the presented secret
 * is checked for its checksum first, so malformed secrets cost no D1 read.
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { members, widgetKeys } from "../db/schema";
import { BoundedMap } from "../platform/bounded-map";
import { constantTimeEqual, hasValidChecksum, sha256Hex } from "../platform/crypto";
import { sha256HexSync } from "../platform/sha256-sync";

export const WIDGET_KEY_PREFIX = "wk_live_";
export const MEMBER_TOKEN_PREFIX = "mt_";

/** A widget key that passed every check. `flowIds` null means every agent of the workspace. */
export type WidgetKeyPrincipal = { keyId: string; workspaceId: string; flowIds: string[] | null };

/** A member token that passed every check. */
export type MemberPrincipal = {
  memberId: string;
  workspaceId: string;
  role: "owner" | "admin" | "member";
};

/** A live key as found by its digest (the cache's key, the index's equality): nothing to compare. */
type WidgetKeyFacts = WidgetKeyPrincipal & { expiresAt: number | null };

const CACHED_KEYS = 10_000;
/**
 * What never changes about a key (workspace, agents, expiry), by SHA-256, for this isolate's life.
 * Revocation is not cached here: the link ledger refuses revoked keys on every call.
 */
const widgetKeyFacts = new BoundedMap<string, WidgetKeyFacts>(CACHED_KEYS);

/**
 * Resolves a widget key: well-formed, known, not revoked when first read, not expired at `now`
 * (epoch ms). Revocation after the first read is enforced by the link ledger's admission.
 * @returns the principal, or null for any refusal (the caller answers 401 invalid_key).
 */
export async function authenticateWidgetKey(
  db: DrizzleD1Database,
  key: string,
  now: number,
): Promise<WidgetKeyPrincipal | null> {
  // Synchronous: a cached key is answered without awaiting anything.
  const hash = sha256HexSync(key);
  let facts = widgetKeyFacts.get(hash);
  if (!facts) {
    // A key found above had its checksum checked when it was cached: the digest is of the same text.
    if (!hasValidChecksum(key, WIDGET_KEY_PREFIX)) return null;
    const row = await readLiveKey(db, hash);
    if (!row) return null;
    facts = row;
    widgetKeyFacts.set(hash, facts);
  }
  return principalAt(facts, now);
}

/** A key's use is written at most this often (ms): the Launch API's calls stay reads. */
const USE_NOTED_EVERY_MS = 60_000;
const useNotedAt = new BoundedMap<string, number>(CACHED_KEYS);

/**
 * Records that the widget key authenticated a call at `now` (epoch ms) as its `lastUsedAt`, at
 * most once a minute per key (per isolate, and in SQL across isolates)
 * (docs/api/manage.md#widget-keys).
 * @returns the write to wait for, or null when none is due
 */
export function noteWidgetKeyUse(
  db: DrizzleD1Database,
  keyId: string,
  now: number,
): Promise<unknown> | null {
  const last = useNotedAt.get(keyId);
  if (last !== undefined && now - last < USE_NOTED_EVERY_MS) return null;
  useNotedAt.set(keyId, now);
  const stale = or(
    isNull(widgetKeys.lastUsedAt),
    lt(widgetKeys.lastUsedAt, now - USE_NOTED_EVERY_MS),
  );
  return db
    .update(widgetKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(widgetKeys.id, keyId), stale));
}

/**
 * Whether `key` is a widget key that is live right now, read from D1 past every cache, so a key
 * revoked a moment ago is not one (docs/security.md#widget-keys). For refusal paths only, where
 * the answer picks between 401 invalid_key and 403 insufficient_scope.
 */
export async function isLiveWidgetKey(
  db: DrizzleD1Database,
  key: string,
  now: number,
): Promise<boolean> {
  if (!hasValidChecksum(key, WIDGET_KEY_PREFIX)) return false;
  const hash = await sha256Hex(key);
  const row = await readLiveKey(db, hash);
  return row !== null && principalAt(row, now) !== null;
}

async function readLiveKey(db: DrizzleD1Database, hash: string): Promise<WidgetKeyFacts | null> {
  const row = await db
    .select({
      keyId: widgetKeys.id,
      workspaceId: widgetKeys.workspaceId,
      flowIds: widgetKeys.flowIds,
      expiresAt: widgetKeys.expiresAt,
    })
    .from(widgetKeys)
    .where(and(eq(widgetKeys.keyHash, hash), isNull(widgetKeys.revokedAt)))
    .get();
  return row ? { ...row, flowIds: row.flowIds ?? null } : null;
}

function principalAt(facts: WidgetKeyFacts, now: number): WidgetKeyPrincipal | null {
  if (facts.expiresAt !== null && facts.expiresAt <= now) return null;
  return { keyId: facts.keyId, workspaceId: facts.workspaceId, flowIds: facts.flowIds };
}

/** Resolves a member token of a member who has not been removed; null otherwise. */
export async function authenticateMember(
  db: DrizzleD1Database,
  token: string,
): Promise<MemberPrincipal | null> {
  if (!hasValidChecksum(token, MEMBER_TOKEN_PREFIX)) return null;
  const hash = await sha256Hex(token);
  const row = await db
    .select({
      id: members.id,
      workspaceId: members.workspaceId,
      role: members.role,
      tokenHash: members.tokenHash,
    })
    .from(members)
    .where(and(eq(members.tokenHash, hash), isNull(members.removedAt)))
    .get();
  if (!row || !constantTimeEqual(row.tokenHash, hash)) return null;
  return { memberId: row.id, workspaceId: row.workspaceId, role: row.role };
}

/**
 * Constant-time check of the operator token against the `OPERATOR_TOKEN` secret and, during a
 * rotation, each of the comma-separated `OPERATOR_TOKEN_PREVIOUS` (docs/security.md#rotating-keys).
 */
export async function isOperatorToken(
  presented: string,
  secrets: { OPERATOR_TOKEN?: string; OPERATOR_TOKEN_PREVIOUS?: string },
): Promise<boolean> {
  const accepted = [secrets.OPERATOR_TOKEN, ...(secrets.OPERATOR_TOKEN_PREVIOUS ?? "").split(",")]
    .map((token) => token?.trim() ?? "")
    .filter((token) => token !== "");
  if (accepted.length === 0) return false;
  // Digests have equal lengths, so the comparison leaks neither content nor length; every
  // accepted token is compared, so the time does not tell which one matched.
  const digest = await sha256Hex(presented);
  let found = false;
  for (const token of accepted) found = constantTimeEqual(digest, await sha256Hex(token)) || found;
  return found;
}
