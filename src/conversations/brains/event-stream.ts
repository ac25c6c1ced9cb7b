/**
 * A model's streamed answer read as server-sent events (docs/api/conversations.md#replies): what
 * `openai`'s `Stream.fromSSEResponse` did for the brains, in one read loop instead of its four
 * nested async generators, whose machinery was a tenth of a chat round trip's CPU
 * (docs/performance.md#chat-without-the-packages-stream).
 *
 * The same decoding: lines end with CRLF, LF or CR (also split across chunks); `:` starts a
 * comment; `event:` names the event and `data:` lines join with LF; one space after the colon is
 * dropped; a blank line ends an event, and an event the stream did not end is ended at its end.
 * The same items: `[DONE]` ends the stream; each other event's data is parsed as JSON (a
 * `SyntaxError` when it is not); an `error` event or data with an `error` field is thrown as the
 * package's `APIError`; a `thread.*` event is handed over as `{ event, data }`. An abort ends the
 * stream quietly, and nothing is handed over once the signal has aborted.
 */
import { APIError } from "openai/core/error";

/** An event's name (null without `event:`) and its data lines joined. */
type ServerSentEvent = { event: string | null; data: string };

const LF = 10;
const CR = 13;

/** Splits text into lines and lines into events, keeping what a chunk left unfinished. */
export class EventStreamDecoder {
  /** The start of a line whose end has not come yet. */
  private rest = "";
  /** The last chunk ended with CR: an LF opening the next one belongs to it. */
  private afterCr = false;
  private event: string | null = null;
  private data: string[] = [];

  /** Decodes the next piece of text; appends the events it ended to `out`. */
  push(text: string, out: ServerSentEvent[]): void {
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    const length = text.length;
    for (let i = start; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      const line = this.rest === "" ? text.slice(start, i) : this.rest + text.slice(start, i);
      this.rest = "";
      this.line(line, out);
      if (code === CR) {
        if (i + 1 === length) this.afterCr = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    }
    if (start < length) this.rest += text.slice(start);
  }

  /** The stream ended: its unfinished line, and the event it was part of. */
  end(out: ServerSentEvent[]): void {
    this.afterCr = false;
    if (this.rest !== "") {
      const line = this.rest;
      this.rest = "";
      this.line(line, out);
    }
    this.line("", out);
  }

  private line(line: string, out: ServerSentEvent[]): void {
    if (line === "") {
      if (!this.event && this.data.length === 0) return;
      out.push({ event: this.event, data: this.data.join("\n") });
      this.event = null;
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" a comment
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "event" && field !== "data") return;
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "event") this.event = value;
    else this.data.push(value);
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
