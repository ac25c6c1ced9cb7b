/**
 * Dashboard sign-in (docs/dashboard.md#sign-in): one-time sign-in links (15 minutes, used once)
 * open browser sessions (12 hours idle, 7 days at most). Only SHA-256 digests of link and session
 * tokens are stored; a removed member's sessions end at once.
 */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { members, workspaces } from "../db/schema";
import { sessions, signInLinks } from "../db/session-tables";
import { randomBase64Url, sha256Hex } from "../platform/crypto";
import { insufficientScope, notFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { SESSION_COOKIE } from "../platform/session-cookie-name";
import type { MemberPrincipal } from "./credentials";

/** Sign-in's lifetimes (ms) and the session cookie's name (docs/dashboard.md#sign-in). */
export const SIGN_IN = {
  linkTtlMs: 15 * 60_000,
  idleMs: 12 * 3_600_000,
  absoluteMs: 7 * 24 * 3_600_000,
  /** A session's last use is written at most this often, so reads stay reads. */
  touchEveryMs: 5 * 60_000,
  cookie: SESSION_COOKIE,
} as const;

const LINK_PREFIX = "si_";
const SESSION_PREFIX = "ds_";

/** A session as a signed-in request sees it. */
export type SessionPrincipal = MemberPrincipal & { sessionId: string };

/**
 * Creates a one-time sign-in link for an active member of the workspace.
 * @param requester who asks, when a member does: anyone for themself, an Owner for anyone, an
 *   Admin for members only (an Admin signing in as the Owner could take the workspace over)
 * @param appUrl the service's origin, e.g. `https://edge.example.com`
 * @returns the URL (`{appUrl}/sign-in#token=<token>`, the token shown only here, in the fragment,
 *   which browsers never send, so no request log holds it) and its expiry (epoch ms)
 * @throws 404 not_found for a member not (or no longer) in the workspace; 403 insufficient_scope
 */
export async function createSignInLink(
  db: DrizzleD1Database,
  workspaceId: string,
  memberId: string,
  appUrl: string,
  now = Date.now(),
  requester: MemberPrincipal | null = null,
): Promise<{ url: string; expiresAt: number }> {
  const member = await db
    .select({ id: members.id, role: members.role })
    .from(members)
    .where(
      and(
        eq(members.id, memberId),
        eq(members.workspaceId, workspaceId),
        isNull(members.removedAt),
      ),
    )
    .get();
  if (!member) throw notFound("No such member in this workspace.");
  if (requester && requester.memberId !== memberId) {
    const allowed =
      requester.role === "owner" || (requester.role === "admin" && member.role === "member");
    if (!allowed) {
      throw insufficientScope("Owners sign in anyone; Admins sign in members only.");
    }
  }
  const token = `${LINK_PREFIX}${randomBase64Url(32)}`;
  const expiresAt = now + SIGN_IN.linkTtlMs;
  await db.insert(signInLinks).values({
    id: newId("sil"),
    memberId,
    workspaceId,
    tokenHash: await sha256Hex(token),
    createdAt: now,
    expiresAt,
  });
  return { url: `${appUrl}/sign-in#token=${token}`, expiresAt };
}

/** Who a usable sign-in link signs in (for the page that asks to continue), or null. */
export async function describeSignInLink(
  db: DrizzleD1Database,
  token: string,
  now = Date.now(),
): Promise<{ memberName: string; email: string; workspaceName: string } | null> {
  if (!token.startsWith(LINK_PREFIX)) return null;
  const row = await db
    .select({ memberName: members.name, email: members.email, workspaceName: workspaces.name })
    .from(signInLinks)
    .innerJoin(members, eq(members.id, signInLinks.memberId))
    .innerJoin(workspaces, eq(workspaces.id, signInLinks.workspaceId))
    .where(
      and(
        eq(signInLinks.tokenHash, await sha256Hex(token)),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, now),
        isNull(members.removedAt),
      ),
    )
    .get();
  return row ?? null;
}

/**
 * Uses a sign-in link (once: the update that marks it used is the check) and opens a session.
 * @returns the session ({@link openSession}) and the link's record id (`sil_…`), or null when the
 *   link is unknown, used, expired or its member removed
 */
export async function redeemSignInLink(
  db: DrizzleD1Database,
  token: string,
  now = Date.now(),
): Promise<(OpenedSession & { linkId: string }) | null> {
  if (!token.startsWith(LINK_PREFIX)) return null;
  const [used] = await db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(signInLinks.tokenHash, await sha256Hex(token)),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, now),
        sql`EXISTS (SELECT 1 FROM members WHERE members.id = ${signInLinks.memberId} AND members.removed_at IS NULL)`,
      ),
    )
    .returning({
      linkId: signInLinks.id,
      memberId: signInLinks.memberId,
      workspaceId: signInLinks.workspaceId,
    });
  if (!used) return null;
  return { ...(await openSession(db, used.memberId, used.workspaceId, now)), linkId: used.linkId };
}

/** A session just opened: the token for the cookie, its expiry (epoch ms), whose it is. */
export type OpenedSession = {
  sessionToken: string;
  expiresAt: number;
  sessionId: string;
  memberId: string;
  workspaceId: string;
};

/**
 * Opens a session for a member who proved who they are (a sign-in link, a passkey).
 * @returns the session token for the cookie, its absolute expiry (epoch ms) and its record
 */
export async function openSession(
  db: DrizzleD1Database,
  memberId: string,
  workspaceId: string,
  now = Date.now(),
): Promise<OpenedSession> {
  const sessionToken = `${SESSION_PREFIX}${randomBase64Url(32)}`;
  const expiresAt = now + SIGN_IN.absoluteMs;
  const sessionId = newId("dss");
  await db.insert(sessions).values({
    id: sessionId,
    memberId,
    workspaceId,
    tokenHash: await sha256Hex(sessionToken),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  return { sessionToken, expiresAt, sessionId, memberId, workspaceId };
}

/**
 * The member behind a session cookie: the session unexpired (used within 12 hours, opened less
 * than 7 days ago) and the member not removed. Notes its use at most every 5 minutes.
 * @returns the principal, or null for any refusal
 */
export async function authenticateSession(
  db: DrizzleD1Database,
  token: string,
  now = Date.now(),
): Promise<SessionPrincipal | null> {
  if (!token.startsWith(SESSION_PREFIX)) return null;
  const row = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      memberId: members.id,
      workspaceId: members.workspaceId,
      role: members.role,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .where(and(eq(sessions.tokenHash, await sha256Hex(token)), isNull(members.removedAt)))
    .get();
  if (!row || now >= row.expiresAt || now - row.lastSeenAt > SIGN_IN.idleMs) return null;
  if (now - row.lastSeenAt > SIGN_IN.touchEveryMs) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  const { sessionId, memberId, workspaceId, role } = row;
  return { sessionId, memberId, workspaceId, role };
}

/**
 * Ends one session (sign-out in this browser).
 * @returns the session ended, or null for an unknown token (ignored)
 */
export async function endSession(
  db: DrizzleD1Database,
  token: string,
): Promise<{ id: string; memberId: string; workspaceId: string } | null> {
  const [ended] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, await sha256Hex(token)))
    .returning({ id: sessions.id, memberId: sessions.memberId, workspaceId: sessions.workspaceId });
  return ended ?? null;
}

/** Ends every session of a member (sign out everywhere, or the member's removal). */
export async function endSessionsOf(db: DrizzleD1Database, memberId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.memberId, memberId));
}
