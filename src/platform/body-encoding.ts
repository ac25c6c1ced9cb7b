/** Request bodies are taken as sent: we decode no Content-Encoding (docs/limits.md). */

/**
 * The Content-Encoding to refuse (anything but absent or `identity`), else null; callers answer 415
 * (docs/errors.md, docs/api/webhooks.md#responses).
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
