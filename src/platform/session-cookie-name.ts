/**
 * The dashboard's session cookie's name (docs/dashboard.md#sign-in), here so that the webhook
 * code, which must never set or pass it on (docs/security.md#webhook-replies), and the sign-in
 * code name it the same way.
 */

/** The cookie's name: `__Host-` (Secure, Path=/, no Domain) and the stem below. */
export const SESSION_COOKIE = "__Host-agent_edge_session";

/** Whether a cookie name is the session's or passes for it (any prefix or case). */
export function namesSessionCookie(name: string): boolean {
  return name.toLowerCase().includes("agent_edge_session");
}
