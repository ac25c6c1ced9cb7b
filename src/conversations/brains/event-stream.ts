/**
 * A model's streamed answer read as server-sent events (docs/api/conversations.md#replies): what
 * `openai`'s `Stream.fromSSEResponse` did for the brains, in one read loop instead of its four
 * nested async generators, whose machinery was a tenth of a chat round trip's CPU
 * (docs/performance.md#chat-without-the-packages-stream). The events are parsed by
 * `eventsource-parser` (WHATWG's rules, the parser of the Vercel AI SDK), not by our own code.
 *
 * The same decoding: lines end with CRLF, LF or CR (also split across chunks); `:` starts a
 * comment; `event:` names the event and `data:` lines join with LF; one space after the colon is
 * dropped; a blank line ends an event, and an event the stream did not end is ended at its end.
 * The same items: `[DONE]` ends the stream; each other event's data is parsed as JSON (a
 * `SyntaxError` when it is not); an `error` event or data with an `error` field is thrown as the
 * package's `APIError`; a `thread.*` event is handed over as `{ event, data }`. An abort ends the
 * stream quietly, and nothing is handed over once the signal has aborted.
 */
import { createParser } from "eventsource-parser";
import { APIError } from "openai/core/error";

/** An event's name (null without `event:`) and its data lines joined. */
type ServerSentEvent = { event: string | null; data: string };

/**
 * Splits text into events with `eventsource-parser` (WHATWG's parsing, pieces of any size), and
 * ends the stream as the package's decoder did: an event the stream did not end is ended at its end.
 */
export class EventStreamDecoder {
  private out: ServerSentEvent[] = [];
  private readonly parser = createParser({
    onEvent: (message) => this.out.push({ event: message.event ?? null, data: message.data }),
  });

  /** Decodes the next piece of text; appends the events it ended to `out`. */
  push(text: string, out: ServerSentEvent[]): void {
    this.out = out;
    this.parser.feed(text);
  }

  /** The stream ended: its unfinished line, and the event it was part of. */
  end(out: ServerSentEvent[]): void {
    this.out = out;
    // A line end for an unfinished line, and a blank line for the event it was part of.
    this.parser.feed("\n\n");
    this.parser.reset();
  }
}

/**
 * Reads `body` to its end (or `[DONE]`) and hands each event's item to `each`, in order.
 * @param headers the response's, for the APIError of an error event
 * @param signal the reply's deadline; `cancelOnAbort` when the body's request does not carry it
 *   (a fetch given `signal` ends its body itself)
 * @throws SyntaxError for data that is not JSON, APIError for an error event, what the body throws
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  headers: Headers | undefined,
  signal: AbortSignal,
  cancelOnAbort: boolean,
  each: (item: unknown) => void,
): Promise<void> {
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  if (cancelOnAbort) {
    signal.addEventListener("abort", cancel, { once: true });
    if (signal.aborted) cancel();
  }
  const decoder = new TextDecoder();
  const lines = new EventStreamDecoder();
  const events: ServerSentEvent[] = [];
  let ended = false;
  try {
    while (!signal.aborted) {
      const chunk = await reader.read();
      if (chunk.done) lines.end(events);
      else lines.push(decoder.decode(chunk.value, { stream: true }), events);
      for (const event of events) {
        if (signal.aborted) return;
        if (event.data === "[DONE]") {
          ended = !chunk.done;
          return;
        }
        each(item(event, headers));
      }
      events.length = 0;
      if (chunk.done) return;
    }
  } catch (error) {
    if (isAbort(error, signal)) return;
    // A failed stream is not read on (the package's stream cancelled it too).
    cancel();
    throw error;
  } finally {
    if (cancelOnAbort) signal.removeEventListener("abort", cancel);
    // After `[DONE]` only the body's end is due: it is read after the reply (a body that has ended
    // costs nothing more; cancelling one, or aborting its request, cost a twentieth of a chat
    // round trip), and whatever still comes cancels the body.
    if (ended) void drain(reader);
  }
}

/** Reads what follows `[DONE]`: the end, or else the body is cancelled. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    if (!(await reader.read()).done) await reader.cancel();
  } catch {} // aborted meanwhile: ended either way
}

/** An abort of the request (any AbortError but an APIError), or the signal's own reason. */
function isAbort(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted && error === signal.reason) return true;
  const name = typeof error === "object" && error !== null && "name" in error ? error.name : null;
  return name === "AbortError" && !(error instanceof APIError);
}

/** An event as `openai`'s `Stream` hands it over (see the top of the file). */
function item(event: ServerSentEvent, headers: Headers | undefined): unknown {
  let data: { error?: unknown } | null;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw new SyntaxError("Error reading response: malformed server-sent event JSON.");
  }
  if (event.event?.startsWith("thread.")) return { event: event.event, data };
  if (event.event === "error") {
    const error = (data?.error ?? data) as object;
    throw new APIError(undefined, error, undefined, headers ?? new Headers());
  }
  if (data?.error) {
    throw new APIError(undefined, data.error as object, undefined, headers ?? new Headers());
  }
  return data;
}
