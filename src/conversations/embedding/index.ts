/**
 * Where the chat may be shown (docs/security.md#chat-embedding): the hosted page in no frame, the
 * embedded chat in the channel's allowed origins (any when none), its socket only to our origin.
 * Shared with the dashboard's channel form.
 */

/** Most allowed origins one channel holds (docs/widget.md#allowed-sites). */
export const MAX_ALLOWED_ORIGINS = 20;

/** What an allowed origin must be, as the API and the dashboard's channel form say it. */
export const ALLOWED_ORIGIN_RULE =
  "An origin: http:// or https://, a host and an optional port, no path (https://shop.example.com); https://*.example.com allows its subdomains.";

/** A widget channel's id, as `newId("ch")` makes it. */
export const CHANNEL_ID = /^ch_[0-9A-Za-z]{22}$/;

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/**
 * An allowed origin's canonical form, e.g. `HTTPS://Shop.Example.com:443/` →
 * `https://shop.example.com`; `wildcard` allows a leading `*.` before two labels at least.
 * @returns null for a path, query, fragment, user, other scheme, IPv6 address or `*` alone
 */
export function canonicalOrigin(value: string, wildcard = true): string | null {
  const match = /^(https?):\/\/(\*\.)?([^/?#\\]+)\/?$/i.exec(value.trim());
  if (!match) return null;
  const [, scheme = "", star = "", rest = ""] = match;
  if (star && !wildcard) return null;
  let url: URL;
  try {
    url = new URL(`${scheme}://${rest}`);
  } catch {
    return null;
  }
  const host = url.hostname;
  if (url.username || url.password || !HOST_NAME.test(host)) return null;
  if (star && !host.includes(".")) return null;
  return `${url.protocol}//${star}${host}${url.port ? `:${url.port}` : ""}`;
}

/**
 * Whether a page of `origin` may show the chat, as browsers read {@link embedAncestors}: any when
 * `allowed` is empty, the dashboard always, else a matching host (or subdomain for `*.`), port and
 * scheme (or http's upgrade to https).
 * @param allowed canonical origins (the channel's `allowedOrigins`)
 * @param origin the page's origin, e.g. `https://shop.example.com`; anything else is refused
 * @param dashboardOrigin the origin of `APP_URL`
 */
export function mayEmbed(
  allowed: readonly string[],
  origin: string,
  dashboardOrigin: string,
): boolean {
  if (allowed.length === 0) return true;
  const page = canonicalOrigin(origin, false);
  if (!page) return false;
  if (page === dashboardOrigin) return true;
  const at = new URL(page);
  return allowed.some((entry) => {
    const sub = entry.includes("://*.");
    const source = new URL(entry.replace("://*.", "://"));
    const scheme =
      source.protocol === at.protocol || (source.protocol === "http:" && at.protocol === "https:");
    const host = sub
      ? at.hostname.endsWith(`.${source.hostname}`)
      : at.hostname === source.hostname;
    return scheme && host && source.port === at.port;
  });
}

/**
 * The embedded chat's `frame-ancestors` sources: the dashboard's origin and the allowed ones.
 * @returns null when `allowed` is empty: no directive, so any page may frame it
 */
export function embedAncestors(allowed: readonly string[], dashboardOrigin: string): string | null {
  return allowed.length === 0 ? null : [dashboardOrigin, ...allowed].join(" ");
}

/**
 * The chat page's Content-Security-Policy: its own script, styles and API, the conversation's
 * socket on `socketOrigin` only, and the frames it may be shown in.
 * @param socketOrigin the socket URLs' origin (BASE_URL's, maybe not the page's), `wss://…`
 * @param frameAncestors `'none'` for the hosted page, {@link embedAncestors} for the embedded one
 */
export function chatPagePolicy(socketOrigin: string, frameAncestors: string | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${socketOrigin}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    ...(frameAncestors === null ? [] : [`frame-ancestors ${frameAncestors}`]),
  ].join("; ");
}
