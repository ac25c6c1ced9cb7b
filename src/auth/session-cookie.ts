/**
 * Setting the dashboard's session cookie (docs/dashboard.md#sign-in), the one place its
 * attributes are written: HttpOnly, Secure, SameSite=Lax, Path=/, for the session's whole life.
 */
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import { recordAudit } from "../audit";
import type { AppEnv } from "../platform/app";
import { SIGN_IN } from "./sessions";

/** Sets the cookie of a session just opened (by a sign-in link or a passkey). */
export function setSessionCookie(c: Context, session: { sessionToken: string }): void {
  setCookie(c, SIGN_IN.cookie, session.sessionToken, {
    path: "/",
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    maxAge: Math.floor(SIGN_IN.absoluteMs / 1000),
  });
}

/**
 * Opens a signed-in session: sets its cookie and records `session.signed_in` in the audit log
 * (docs/security.md#audit-log) with what it was opened by (a sign-in link or a passkey).
 */
export async function startSession(
  c: Context<AppEnv>,
  session: { sessionToken: string; workspaceId: string; memberId: string },
  by: { type: "sign_in_link" | "passkey"; id: string },
): Promise<void> {
  setSessionCookie(c, session);
  await recordAudit(c.env, c.req.raw, {
    workspaceId: session.workspaceId,
    actor: { type: "member", id: session.memberId },
    action: "session.signed_in",
    target: by,
  });
}
