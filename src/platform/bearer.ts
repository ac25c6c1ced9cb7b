/** The credential of a request's headers (docs/security.md#credentials). */
import { constantTimeEqual } from "./crypto";

/**
 * Reads the credential from `Authorization: Bearer …` or, when `allowApiKeyHeader`, `x-api-key`.
 * @returns it, `null` for none, `"conflict"` when they disagree or another scheme is used
 */
export function readCredential(
  headers: Headers,
  allowApiKeyHeader: boolean,
): string | null | "conflict" {
  const authorization = headers.get("authorization");
  let bearer: string | null = null;
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) return "conflict";
    bearer = match[1];
  }
  const apiKey = allowApiKeyHeader ? headers.get("x-api-key")?.trim() || null : null;
  if (bearer !== null && apiKey !== null && !constantTimeEqual(bearer, apiKey)) return "conflict";
  return bearer ?? apiKey;
}
