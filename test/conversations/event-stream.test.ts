/**
 * The brains' reader of server-sent events (src/conversations/brains/event-stream.ts) against the
 * `openai` package's `Stream.fromSSEResponse`, which it replaces: the same bytes, cut into chunks
 * at every place, give the same items, and the same errors, in the same order.
 */
import { APIError } from "openai/core/error";
import { Stream } from "openai/core/streaming";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AgentBrain } from "../../src/conversations/brains";
import { readEventStream } from "../../src/conversations/brains/event-stream";
import type { ConversationContext } from "../../src/conversations/conversation/contract";
import { replyWithin } from "../../src/conversations/conversation/replies";

const encoder = new TextEncoder();

/** A body of `text`'s UTF-8 bytes, cut at `cuts` (byte offsets). */
function body(text: string, cuts: number[] = []): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  const ends = [...cuts.filter((cut) => cut > 0 && cut < bytes.length), bytes.length];
  let start = 0;
  return new ReadableStream({
    start(controller) {
      for (const end of ends) {
        controller.enqueue(bytes.slice(start, end));
        start = end;
      }
      controller.close();
    },
  });
}

type Outcome = { items: unknown[]; error?: string };

async function ours(text: string, cuts: number[]): Promise<Outcome> {
  const items: unknown[] = [];
  try {
    await readEventStream(
      body(text, cuts),
      new Headers(),
      new AbortController().signal,
      false,
      (i) => items.push(i),
    );
    return { items };
  } catch (error) {
    return { items, error: describeError(error) };
  }
}

async function theirs(text: string, cuts: number[]): Promise<Outcome> {
  const items: unknown[] = [];
  try {
    const response = new Response(body(text, cuts));
    for await (const item of Stream.fromSSEResponse(response, new AbortController())) {
      items.push(item);
    }
    return { items };
  } catch (error) {
    return { items, error: describeError(error) };
  }
}

function describeError(error: unknown): string {
  if (error instanceof APIError) return `APIError ${error.message} ${JSON.stringify(error.error)}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const chunk = (content: string) =>
  JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });

/** Streams as models send them, and as the format allows them. */
const STREAMS: [string, string][] = [
  ["OpenAI's", `data: ${chunk("Hello ")}\n\ndata: ${chunk("Ada ✓")}\n\ndata: [DONE]\n\n`],
  ["CRLF line ends", `data: ${chunk("a")}\r\n\r\ndata: ${chunk("b")}\r\n\r\ndata: [DONE]\r\n\r\n`],
  ["CR line ends", `data: ${chunk("a")}\r\rdata: ${chunk("b")}\r\r`],
  [
    "comments, other fields, a data line without its space, data over two lines",
    `: keep-alive\nid: 7\nretry: 10\ndata:{"a":\ndata: 1}\n\nevent\ndata: {"b":2}\n\n`,
  ],
  ["no blank line at the end", `data: ${chunk("a")}\n\ndata: ${chunk("b")}`],
  ["no line end at all", `data: ${chunk("only")}`],
  ["what follows [DONE] is not read", `data: ${chunk("a")}\n\ndata: [DONE]\n\ndata: nonsense\n\n`],
  ["a named event", `event: message\ndata: {"response":"hi"}\n\ndata: {"response":"!"}\n\n`],
  ["a thread event", `event: thread.run\ndata: {"id":"r"}\n\n`],
  ["an error event", `data: ${chunk("a")}\n\nevent: error\ndata: {"error":{"message":"x"}}\n\n`],
  ["an error field", `data: ${chunk("a")}\n\ndata: {"error":{"message":"overloaded"}}\n\n`],
  ["JSON that is not", `data: ${chunk("a")}\n\ndata: {nope\n\n`],
  ["empty events", `\n\n\r\n:only a comment\n\ndata: {"x":1}\n\n`],
];

describe("readEventStream, as openai's Stream reads the same bytes", () => {
  // The package logs two lines of no content for data that is not JSON.
  beforeAll(() => vi.spyOn(console, "error").mockImplementation(() => {}));
  afterAll(() => vi.restoreAllMocks());

  for (const [name, text] of STREAMS) {
    it(`${name}: whole, and cut at every byte`, async () => {
      const length = encoder.encode(text).length;
      const expected = await theirs(text, []);
      expect(await ours(text, [])).toEqual(expected);
      for (let cut = 1; cut < length; cut++) {
        expect(await ours(text, [cut])).toEqual(await theirs(text, [cut]));
      }
      // A byte at a time: a CR and its LF, and a character's bytes, in different chunks.
      const everyByte = Array.from({ length }, (_, n) => n);
      expect(await ours(text, everyByte)).toEqual(await theirs(text, everyByte));
    });
  }

  it("an abort ends the stream quietly, and hands over nothing after it", async () => {
    const abort = new AbortController();
    const items: unknown[] = [];
    let pull = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pull++;
        if (pull === 1) controller.enqueue(encoder.encode(`data: ${chunk("a")}\n\n`));
        else {
          abort.abort(new Error("The reply's deadline passed."));
          controller.enqueue(encoder.encode(`data: ${chunk("b")}\n\n`));
        }
      },
    });
    await readEventStream(stream, undefined, abort.signal, true, (item) => items.push(item));
    expect(items).toEqual([JSON.parse(chunk("a"))]);
  });

  it("a body left open after [DONE] does not hold the reply, and is cancelled", async () => {
    let cancelled = false;
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        if (pulls === 1)
          controller.enqueue(encoder.encode(`data: ${chunk("a")}\n\ndata: [DONE]\n\n`));
        else if (pulls === 2) controller.enqueue(encoder.encode("data: more\n\n"));
        // Then it never ends.
      },
      cancel() {
        cancelled = true;
      },
    });
    const items: unknown[] = [];
    await readEventStream(stream, undefined, new AbortController().signal, false, (item) =>
      items.push(item),
    );
    expect(items).toEqual([JSON.parse(chunk("a"))]);
    await expect.poll(() => cancelled).toBe(true);
  });

  it("a stream that fails is cancelled, not read on", async () => {
    let cancelled = false;
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        if (pulls === 1) controller.enqueue(encoder.encode("data: {nope\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const read = readEventStream(stream, undefined, new AbortController().signal, true, () => {});
    await expect(read).rejects.toBeInstanceOf(SyntaxError);
    expect(cancelled).toBe(true);
  });
});

describe("replyWithin's abort", () => {
  /** A brain that keeps the signal it was given and answers, fails, or never answers. */
  const brain = (answer: "whole" | "fail" | "never", signals: AbortSignal[]): AgentBrain => ({
    kind: "openai",
    analyze: async () => ({}),
    reply: (_context, _history, onDelta, signal) => {
      signals.push(signal);
      onDelta("Hi");
      if (answer === "whole") return Promise.resolve({ text: "Hi", end: false });
      if (answer === "fail") return Promise.reject(new Error("cut"));
      return new Promise(() => {});
    },
  });
  const context = {} as ConversationContext;

  it("leaves a brain that answered whole alone, and aborts one that failed or ran out of time", async () => {
    const signals: AbortSignal[] = [];
    expect(await replyWithin(brain("whole", signals), context, [], 1_000)).toMatchObject({
      ok: true,
    });
    expect(await replyWithin(brain("fail", signals), context, [], 1_000)).toMatchObject({
      ok: false,
      reason: "failed",
    });
    expect(await replyWithin(brain("never", signals), context, [], 10)).toMatchObject({
      ok: false,
      reason: "timeout",
      partial: "Hi",
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true, true]);
  });
});
