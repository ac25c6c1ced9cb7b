/**
 * Credentials never travel in a query string (docs/security.md#credentials): URLs end up in logs,
 * browser histories and Referer headers. A `/v1/` request with a query parameter named like a
 * credential (`key`, `api_key`, `token`, …) or whose value is a widget key or member token (by
 * its checksum, so a customer's id that merely starts like one passes) is refused with 400
 * `credential_in_query` before any credential is read, so a key sent this way is never accepted,
 * even once. The chat socket's one-time `ticket` is the exception: a browser
 * cannot set headers on a WebSocket, and the ticket is single-use and lives 60 s.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../platform/app";
import { hasValidChecksum } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { CREDENTIAL_QUERY_NAMES } from "../platform/log";
import { MEMBER_TOKEN_PREFIX, WIDGET_KEY_PREFIX } from "./credentials";

/** A value that is a widget key or member token by its checksum (not merely its prefix). */
const isCredential = (value: string) =>
  hasValidChecksum(value, WIDGET_KEY_PREFIX) || hasValidChecksum(value, MEMBER_TOKEN_PREFIX);

/** Refuses a request that carries a credential in its query string. */
export const refuseQueryCredentials = createMiddleware<AppEnv>(async (c, next) => {
  const query = c.req.url.indexOf("?");
  if (query !== -1) {
    for (const [name, value] of new URLSearchParams(c.req.url.slice(query + 1))) {
      const lower = name.toLowerCase();
      const named = CREDENTIAL_QUERY_NAMES.has(lower) && lower !== "ticket";
      if (named || isCredential(value.trim())) {
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
