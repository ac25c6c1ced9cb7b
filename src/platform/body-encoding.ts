/**
 * Request bodies are taken as sent: we decode no Content-Encoding (docs/limits.md). Only an absent
 * header or `identity` is accepted; anything else is answered 415 unsupported_media_type.
 */

/**
 * The request's Content-Encoding when it is one we refuse, or null when the body is plain (header
 * absent or empty, or every listed coding `identity`, case-insensitive). Callers answer 415
 * `unsupported_media_type` (docs/errors.md, docs/api/webhooks.md#responses).
 */
export function refusedContentEncoding(headers: Headers): string | null {
  const value = headers.get("content-encoding");
  if (value === null) return null;
  const codings = value
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "");
  return codings.every((coding) => coding === "identity") ? null : value;
}
