import { createMiddleware } from "hono/factory";
import { ApiError } from "../platform/errors";

/**
 * Whether a launch API request comes from a browser (docs/api/launch.md#order-of-checks): any
 * OPTIONS preflight, and any request carrying Origin or Fetch Metadata.
 *
 * One exception, on purpose: a lone `Sec-Fetch-Mode: cors` with no other Fetch Metadata is what
 * Node's built-in fetch (undici) sends from servers; browsers always send Sec-Fetch-Site and
 * Sec-Fetch-Dest with it. Refusing it would refuse the customers' servers the spec is written for.
 */
export function isFromBrowser(request: Request): boolean {
  const headers = request.headers;
  const mode = headers.get("sec-fetch-mode");
  return (
    request.method === "OPTIONS" ||
    headers.has("origin") ||
    headers.has("sec-fetch-site") ||
    headers.has("sec-fetch-dest") ||
    headers.has("sec-fetch-user") ||
    (mode !== null && mode.trim().toLowerCase() !== "cors")
  );
}

/** Refuses browser calls (`isFromBrowser`) with `403 browser_not_allowed` and no CORS headers. */
export const refuseBrowsers = createMiddleware(async (c, next) => {
  if (isFromBrowser(c.req.raw)) {
    throw new ApiError(
      403,
      "browser_not_allowed",
      "The launch API is for servers: call it from your backend with your widget key, never from a browser.",
    );
  }
  await next();
});
