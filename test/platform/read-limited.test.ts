/**
 * Reading a request's body under a limit (docs/limits.md): the declared length read in one step,
 * chunked bodies streamed under the limit, and neither path throwing on a body that breaks off.
 */
import { describe, expect, it } from "vitest";
import { readRequestBody } from "../../src/platform/read-limited";
import { cutOff, erroring } from "../helpers/broken-bodies";

const URL = "https://edge.test/hook";
const bytes = (n: number) => new Uint8Array(n).fill(97);

/** A stream of `chunks` chunks of `size` bytes that counts the chunks it was asked for. */
function counted(chunks: number, size: number) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(bytes(size));
    },
  });
  return { stream, seen };
}

describe("readRequestBody", () => {
  it("reads a body of declared length whole, and no body as empty bytes", async () => {
    const request = new Request(URL, {
      method: "POST",
      body: bytes(3000),
      headers: { "content-length": "3000" },
    });
    expect(request.headers.get("content-length")).toBe("3000");
    const read = await readRequestBody(request, 4096);
    expect(read).toEqual({ ok: true, bytes: bytes(3000) });
    expect(await readRequestBody(new Request(URL), 10)).toEqual({ ok: true, bytes: bytes(0) });
  });

  it("refuses a declared length over the limit without reading a byte", async () => {
    const { stream, seen } = counted(4, 1024);
    const request = new Request(URL, {
      method: "POST",
      body: stream,
      headers: { "content-length": "4096" },
    });
    expect(await readRequestBody(request, 4095)).toEqual({ ok: false, reason: "too_large" });
    expect(seen.pulled).toBeLessThanOrEqual(1); // a stream may be asked for its first chunk at once
  });

  it("stops a chunked body as soon as it passes the limit", async () => {
    const { stream, seen } = counted(100, 1024);
    const read = await readRequestBody(new Request(URL, { method: "POST", body: stream }), 4096);
    expect(read).toEqual({ ok: false, reason: "too_large" });
    expect(seen.pulled).toBeLessThan(10);
  });

  it("a body that breaks off is `broken`, with or without its length declared", async () => {
    const declared = new Request(URL, {
      method: "POST",
      body: cutOff('{"a":', 100),
      headers: { "content-length": "100" },
    });
    expect(await readRequestBody(declared, 4096)).toMatchObject({ ok: false, reason: "broken" });
    const chunked = new Request(URL, { method: "POST", body: erroring('{"a":') });
    expect(await readRequestBody(chunked, 4096)).toMatchObject({ ok: false, reason: "broken" });
  });
});
