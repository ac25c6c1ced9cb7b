/**
 * Setting the dashboard's session cookie (docs/dashboard.md#sign-in), the one place its
 * attributes are written: HttpOnly, Secure, SameSite=Lax, Path=/, for the session's whole life.
 */
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
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
