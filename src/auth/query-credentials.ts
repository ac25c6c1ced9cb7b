/**
 * Credentials never travel in a query string (docs/security.md#credentials): URLs end up in logs,
 * browser histories and Referer headers. A `/v1/` request with a query parameter named like a
 * credential (`key`, `api_key`, `token`, …) or whose value looks like a widget key or member token
 * is refused with 400 `credential_in_query` before any credential is read, so a key sent this way
 * is never accepted, even once. The chat socket's one-time `ticket` is the exception: a browser
 * cannot set headers on a WebSocket, and the ticket is single-use and lives 60 s.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../platform/app";
import { ApiError } from "../platform/errors";
import { CREDENTIAL_QUERY_NAMES, looksLikeCredential } from "../platform/log";

/** Refuses a request that carries a credential in its query string. */
export const refuseQueryCredentials = createMiddleware<AppEnv>(async (c, next) => {
  const query = c.req.url.indexOf("?");
  if (query !== -1) {
    for (const [name, value] of new URLSearchParams(c.req.url.slice(query + 1))) {
      const lower = name.toLowerCase();
      const named = CREDENTIAL_QUERY_NAMES.has(lower) && lower !== "ticket";
      if (named || looksLikeCredential(value)) {
        throw new ApiError(
          400,
          "credential_in_query",
          "Credentials are not accepted in the query string; send `Authorization: Bearer <key>`.",
          { details: [{ field: `query.${name}`, code: "credential_in_query" }] },
        );
      }
    }
  }
  await next();
});
