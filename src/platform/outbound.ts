/**
 * The outbound policy (docs/security.md#outbound-requests): requests sent on a user's behalf go to
 * public http(s) destinations only, every hop of a redirect checked. `ALLOW_PRIVATE_OUTBOUND=true`
 * (`npm run dev`) lifts the host rule; it is read at send time, not when a URL is saved.
 */
import ipaddr from "ipaddr.js";

/** Whether private destinations are allowed: local development only. */
export type OutboundPolicy = { allowPrivate: boolean };

/** The policy the Worker's vars set (`ALLOW_PRIVATE_OUTBOUND`). */
export function outboundPolicy(env: { ALLOW_PRIVATE_OUTBOUND?: string }): OutboundPolicy {
  return { allowPrivate: env.ALLOW_PRIVATE_OUTBOUND === "true" };
}

/** A request the policy refused before anything was sent: `destination_not_allowed`. */
export class DestinationNotAllowed extends Error {
  readonly code = "destination_not_allowed";
}

/** Redirects that could not be followed: too many, or a Location that is not a URL. */
export class RedirectFailed extends Error {}

/** Names that only this machine or a local network resolves (RFC 6761, 6762, 8375; ICANN's .internal). */
const LOCAL_NAME = /(?:^|\.)(?:localhost|local|internal|home\.arpa)$/;
/** IPv4 ranges a request may go to: ipaddr.js's public unicast; every special range is refused. */
const PUBLIC_V4 = new Set(["unicast"]);
/** IANA's global unicast block: IPv6 outside it (IPv4-compatible `::a.b.c.d`, …) is refused. */
const GLOBAL_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Why the policy refuses to send a request to `url`, or null when it may be sent.
 * @param url parsed: the WHATWG parser has normalized every IPv4 and IPv6 spelling
 * @returns a sentence for the node's error or the delivery log, free of the URL's secrets
 */
export function refusedDestination(url: URL, policy: OutboundPolicy): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "Only http and https destinations are allowed.";
  }
  if (policy.allowPrivate) return null;
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
  if (ipaddr.isValid(host)) {
    return publicAddress(ipaddr.parse(host))
      ? null
      : "The address is loopback, private, link-local or otherwise not public.";
  }
  if (host === "" || !host.includes(".") || LOCAL_NAME.test(host)) {
    return "The host name is local (localhost, *.local, *.internal or a name without a domain).";
  }
  return null;
}

/** Whether an address is public; an IPv6 form that carries an IPv4 address is judged by it. */
function publicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === "ipv4") return PUBLIC_V4.has(address.range());
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded !== undefined) return embedded !== null && PUBLIC_V4.has(embedded.range());
  return v6.range() === "unicast" && v6.match(GLOBAL_V6);
}

/**
 * The IPv4 address inside an IPv4-mapped, SIIT (RFC 6145), NAT64 (RFC 6052) or 6to4 address;
 * null for a translation form whose IPv4 address cannot be read (Teredo's is obfuscated, RFC
 * 8215's local NAT64 prefix is the network's own), undefined for any other address.
 */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return v4(p[6] ?? 0, p[7] ?? 0);
    case "rfc6052":
      return p[2] === 0 ? v4(p[6] ?? 0, p[7] ?? 0) : null;
    case "6to4":
      return v4(p[1] ?? 0, p[2] ?? 0);
    case "teredo":
      return null;
    default:
      return undefined;
  }
}

/** A request as the service sends it: text body, lower-case header names. */
export type OutboundRequest = {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  signal?: AbortSignal;
};

/** How many redirects an http_request node follows, each hop checked (docs/security.md). */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers a redirect to another origin must not carry on (as the Fetch standard drops them). */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
/** Headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language"];

/**
 * Sends the request under the policy, following up to `maxRedirects` redirects by hand as browsers
 * do (303, and 301/302 after a POST, become a GET; credentials dropped off-origin).
 * @returns the final response (a 3xx only when it has no Location or redirects are not followed)
 * @throws DestinationNotAllowed when the URL or a redirect's target is refused (nothing is sent to it)
 * @throws RedirectFailed past `maxRedirects` or for a Location that is not a URL
 * @throws the fetch's own error (network, timeout)
 */
export async function outboundFetch(
  url: string,
  request: OutboundRequest,
  policy: OutboundPolicy,
  maxRedirects: number,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  let target = parseUrl(url);
  let { method, body } = request;
  const headers = { ...request.headers };
  for (let hop = 0; ; hop++) {
    const refused = refusedDestination(target, policy);
    if (refused) {
      throw new DestinationNotAllowed(hop === 0 ? refused : `A redirect was refused: ${refused}`);
    }
    const response = await fetchImpl(target.href, {
      method,
      headers,
      body: method === "GET" || method === "HEAD" ? null : body,
      redirect: "manual",
      signal: request.signal,
    });
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null || maxRedirects === 0) {
      return response;
    }
    await response.body?.cancel();
    if (hop >= maxRedirects) throw new RedirectFailed(`More than ${maxRedirects} redirects.`);
    const next = parseUrl(location, target);
    if (
      response.status === 303
        ? method !== "GET" && method !== "HEAD"
        : response.status <= 302 && method === "POST"
    ) {
      method = "GET";
      body = null;
      for (const name of BODY_HEADERS) delete headers[name];
    }
    if (next.origin !== target.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    target = next;
  }
}

function parseUrl(url: string, base?: URL): URL {
  try {
    return new URL(url, base);
  } catch {
    throw new RedirectFailed(base ? "A redirect named an invalid URL." : "The URL is invalid.");
  }
}
