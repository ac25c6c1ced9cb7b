/**
 * Uploads that break: bodies that end before their declared length or error while being read, as a
 * client that goes away mid-request produces them (docs/errors.md: a 4xx or nothing, never a 500).
 */

/** A body stream that delivers `prefix`, then errors (read in the Worker's own isolate). */
export function erroring(prefix: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("the client went away"));
      sent = true;
      controller.enqueue(new TextEncoder().encode(prefix));
    },
  });
}

/** A stream that promises `declared` bytes but ends early: the runtime sees the upload broken off. */
export function cutOff(prefix: string, declared: number): ReadableStream<Uint8Array> {
  const fixed = new FixedLengthStream(declared);
  const writer = fixed.writable.getWriter();
  writer.write(new TextEncoder().encode(prefix)).catch(() => {});
  writer.close().catch(() => {});
  return fixed.readable;
}
