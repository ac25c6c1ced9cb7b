/**
 * The dashboard's session cookie's name (docs/dashboard.md#sign-in), shared by sign-in and the
 * webhook code, which never sets or passes it on (docs/security.md#webhook-replies).
 */

/** The cookie's name: `__Host-` (Secure, Path=/, no Domain) and the stem below. */
export const SESSION_COOKIE = "__Host-agent_edge_session";

/** Whether a cookie name is the session's or passes for it (any prefix or case). */
export function namesSessionCookie(name: string): boolean {
  return name.toLowerCase().includes("agent_edge_session");
}
