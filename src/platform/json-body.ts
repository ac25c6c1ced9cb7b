import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { ApiError, invalidRequest } from "./errors";

/**
 * Limits the body to `maxBytes` (also chunked bodies without Content-Length), then requires
 * `Content-Type: application/json` and a parsable body; failures are 413 or 400 invalid_request
 * with `out_of_range`, `unsupported_media_type` or `invalid_json` (contract 3).
 */
export function jsonBody(maxBytes: number): MiddlewareHandler[] {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, "invalid_request", `The body is larger than ${maxBytes} bytes.`, {
        details: [
          {
            field: "body",
            code: "out_of_range",
            message: `At most ${maxBytes} bytes are accepted.`,
          },
        ],
      });
    },
  });
  const parse = createMiddleware(async (c, next) => {
    const contentType = c.req.header("content-type") ?? "";
    if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) {
      throw invalidRequest("Send the body as JSON with Content-Type: application/json.", [
        {
          field: "content-type",
          code: "unsupported_media_type",
          message: `Expected application/json, got ${contentType ? JSON.stringify(contentType) : "none"}.`,
        },
      ]);
    }
    try {
      await c.req.json();
    } catch {
      throw invalidRequest("The body is not valid JSON.", [
        { field: "body", code: "invalid_json", message: "The body could not be parsed as JSON." },
      ]);
    }
    await next();
  });
  return [limit, parse];
}
