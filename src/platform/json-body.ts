/** The JSON body of the API routes: read, checked and parsed once (docs/api/launch.md). */
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { refusedContentEncoding } from "./body-encoding";
import { ApiError, invalidRequest } from "./errors";
import { jsonTextTooDeep } from "./json";
import { readRequestBody } from "./read-limited";

/** Deepest nesting of objects and arrays accepted in an API JSON body, the body itself being 1. */
export const MAX_JSON_DEPTH = 64;

// Not fatal, as Request.text() decodes: invalid bytes become U+FFFD; a leading BOM is dropped.
const utf8 = new TextDecoder("utf-8");

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "invalid_request", `The body is larger than ${maxBytes} bytes.`, {
    details: [
      { field: "body", code: "out_of_range", message: `At most ${maxBytes} bytes are accepted.` },
    ],
  });
}

/** The body's bytes under the limit, or the 413 (too large) or 400 (upload broken off) it gets. */
async function readBytes(c: Context, maxBytes: number): Promise<Uint8Array> {
  const read = await readRequestBody(c.req.raw, maxBytes);
  if (read.ok) return read.bytes;
  if (read.reason === "too_large") throw tooLarge(maxBytes);
  // The client broke off its upload (or the connection was lost): not a fault of ours, not logged.
  throw invalidRequest("The body could not be read to its end.", [
    {
      field: "body",
      code: "invalid_json",
      message: "The body ended before it was complete; was the upload broken off?",
    },
  ]);
}

/** Refuses a Content-Encoding (415) and a Content-Type that is not JSON (400). */
function checkHeaders(c: Context): void {
  const encoding = refusedContentEncoding(c.req.raw.headers);
  if (encoding !== null) {
    throw new ApiError(415, "unsupported_media_type", "Send the body without Content-Encoding.", {
      details: [
        {
          field: "content-encoding",
          code: "unsupported_media_type",
          message: `Compressed bodies are not accepted, got ${JSON.stringify(encoding)}.`,
        },
      ],
    });
  }
  const contentType = c.req.header("content-type") ?? "";
  if (!JSON_TYPE.test(contentType)) {
    throw invalidRequest("Send the body as JSON with Content-Type: application/json.", [
      {
        field: "content-type",
        code: "unsupported_media_type",
        message: `Expected application/json, got ${contentType ? JSON.stringify(contentType) : "none"}.`,
      },
    ]);
  }
}

/**
 * The JSON body middleware (docs/errors.md, docs/limits.md#nesting), refusing in order: over
 * `maxBytes` 413 `out_of_range`; broken off 400 `invalid_json`; any Content-Encoding 415; not JSON
 * 400 `unsupported_media_type`; deeper than {@link MAX_JSON_DEPTH} 400 `too_deep`; unparsable 400
 * `invalid_json`. `c.req.json()` and `valid("json")` then get the value parsed here.
 * @param options.optional the body may be left out (an empty body, whatever its Content-Type, is
 *   none): the route declares its body not required and gives its fields their defaults
 * @returns one middleware in an array, spread into a route's `middleware`
 */
export function jsonBody(
  maxBytes: number,
  options: { optional?: boolean } = {},
): MiddlewareHandler[] {
  const parse = createMiddleware(async (c, next) => {
    const bytes = await readBytes(c, maxBytes);
    if (options.optional && bytes.byteLength === 0) {
      const headers = new Headers(c.req.raw.headers);
      headers.delete("content-type");
      c.req.raw = new Request(c.req.raw, { body: null, headers });
      c.req.json = <T>() => Promise.resolve({} as T);
      return await next();
    }
    checkHeaders(c);
    const text = utf8.decode(bytes);
    if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
      throw invalidRequest("The body is nested too deeply.", [
        {
          field: "body",
          code: "too_deep",
          message: `Objects and arrays nest at most ${MAX_JSON_DEPTH} levels deep.`,
        },
      ]);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidRequest("The body is not valid JSON.", [
        { field: "body", code: "invalid_json", message: "The body could not be parsed as JSON." },
      ]);
    }
    // The stream is consumed: raw readers get the same bytes again, `json()` the value parsed here.
    c.req.raw = new Request(c.req.raw, { body: bytes });
    c.req.json = <T>() => Promise.resolve(value as T);
    await next();
  });
  return [parse];
}
