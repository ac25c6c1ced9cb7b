/**
 * Reading a byte stream (a request or response body) under a size limit, without ever holding more
 * than the limit, and without throwing when the stream breaks (docs/limits.md).
 */

/**
 * How reading a body ended: its bytes; `too_large` when it delivered more than the limit (the rest
 * is cancelled); `broken` when the stream failed before its end (a client that broke off its
 * upload, a connection lost), with the stream's error for the caller to judge.
 */
export type LimitedRead =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: "too_large" }
  | { ok: false; reason: "broken"; error: unknown };

/**
 * Reads `stream` to its end unless it delivers more than `maxBytes` bytes, in which case it is
 * cancelled at once (so a chunked body cannot make us hold more than the limit). Never throws: a
 * stream that errors mid-way is `{ok:false, reason:"broken"}`. Callers answer 413 for `too_large`
 * and their own 4xx for `broken` (400 invalid_request on the API, 422 invalid_body on webhooks;
 * docs/errors.md).
 */
export async function readBodyLimited(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<LimitedRead> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: "too_large" };
      }
      chunks.push(value);
    }
  } catch (error) {
    reader.releaseLock();
    return { ok: false, reason: "broken", error };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * A request's body under `maxBytes` (docs/limits.md): refused at once when Content-Length declares
 * more; read in one step when it declares its length (HTTP's framing ends the body there, and the
 * size is checked again), else streamed under the limit by {@link readBodyLimited} (chunked
 * uploads). No body gives empty bytes. Never throws: a body that breaks off is `broken`.
 */
export async function readRequestBody(request: Request, maxBytes: number): Promise<LimitedRead> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  // A reader, its loop and a copy per chunk were 7 % of a small webhook call's CPU profile; one
  // arrayBuffer() is 4 % (docs/performance.md#targets-and-what-stands-in-the-way).
  if (!Number.isFinite(declared)) return readBodyLimited(request.body, maxBytes);
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > maxBytes ? { ok: false, reason: "too_large" } : { ok: true, bytes };
  } catch (error) {
    return { ok: false, reason: "broken", error };
  }
}

/**
 * Reads a byte stream to the end unless it delivers more than `maxBytes`, in which case it is
 * cancelled at once (see {@link readBodyLimited}).
 * @returns the bytes, or null when the limit was passed
 * @throws the stream's own error when it breaks before its end
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const read = await readBodyLimited(stream, maxBytes);
  if (read.ok) return read.bytes;
  if (read.reason === "too_large") return null;
  throw read.error;
}
