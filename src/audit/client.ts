/**
 * Where a change came from, as the audit log keeps it (docs/security.md#audit-log): the client's
 * network, never its whole address (IPv4 to /24, IPv6 to /48, as analytics tools truncate), and
 * its user agent cut to a bounded length.
 */
import ipaddr from "ipaddr.js";
import { redactText } from "../platform/log";

/** The longest user agent kept, in characters; a longer one is cut. */
export const USER_AGENT_MAX = 256;

/**
 * The network of `address` (the `CF-Connecting-IP` header): `203.0.113.0/24` for an IPv4 address
 * (also one mapped into IPv6), `2001:db8:85a3::/48` for IPv6; null for none or anything unreadable.
 */
export function clientNetwork(address: string | null): string | null {
  const text = address?.trim() ?? "";
  // Cloudflare sends the canonical forms; `1` or `0x7f.1`, which ipaddr.js would also read, are not.
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return null;
  let parsed = ipaddr.parse(text);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === "ipv4") {
    const [a, b, c] = parsed.toByteArray();
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0, 0]).toString()}/48`;
}

/**
 * The `User-Agent` header cut to {@link USER_AGENT_MAX} characters, with anything shaped like one
 * of our credentials replaced as log lines have it (a client that puts its key there keeps it out
 * of the log); null for none.
 */
export function userAgentOf(header: string | null): string | null {
  if (header === null || header.trim() === "") return null;
  return redactText(header.trim()).slice(0, USER_AGENT_MAX);
}
