/**
 * The launch API's look-up and revocation of a link (`GET` and `DELETE /v1/widget/launches/{id}`,
 * docs/api/launch.md#operations) served by the Worker's entry without the app's router, middleware
 * chain and validators, which cost more than the rest of the call
 * (docs/performance.md#look-up-and-revoke-without-the-app).
 *
 * A request is taken only when the app would pass it through the same checks in the same order and
 * nothing more (docs/api/launch.md#order-of-checks): the method and an id of word characters and
 * `-` (at most 64), no query string, no browser signal, settings that pass their check, and a valid
 * widget key. Anything else goes to the app untouched, before any call was counted, and the app
 * answers it as before. The answer (status, body, headers, request id) is the app's:
 * `test/launch/direct-routes.test.ts` compares the two for every outcome.
 */
import { acceptWidgetKey, isFromBrowser } from "../auth";
import { errorAnswer, requestIdOf } from "../platform/app";
import { misconfiguration } from "../platform/config";
import type { AppBindings } from "../platform/env";
import type { ErrorBody } from "../platform/errors";
import { linkLedger } from "./ledger/client";
import type { Guarded } from "./ledger/contract";
import { type PackedView, unpackView } from "./ledger/packed-view";
import { ledgerValue } from "./links";
import { admissionAnswer, rateLimitHeaders } from "./rate-limit";

/** `/v1/widget/launches/{id}`; the id's characters are those no URL encodes. */
const LINK_PATH = /^\/v1\/widget\/launches\/([\w-]{1,64})$/;

/**
 * Serves a look-up or revocation of a link when it can answer as the app would (see above).
 * @param app serves the request through the app, for a key the direct path does not accept
 * @returns the answer, or null when the app must serve the request
 */
export function directLaunch(
  request: Request,
  env: AppBindings,
  ctx: ExecutionContext | undefined,
  app: () => Response | Promise<Response>,
): Promise<Response> | null {
  const method = request.method;
  if (method !== "GET" && method !== "DELETE") return null;
  const url = request.url;
  // The path, as Hono's `getPath` reads it (a query or a percent sign fails the pattern).
  const match = LINK_PATH.exec(url.slice(url.indexOf("/", url.indexOf(":") + 4)));
  if (!match?.[1] || isFromBrowser(request) || misconfiguration(env) !== null) return null;
  return serve(request, env, ctx, match[1], app);
}

async function serve(
  request: Request,
  env: AppBindings,
  ctx: ExecutionContext | undefined,
  linkId: string,
  app: () => Response | Promise<Response>,
): Promise<Response> {
  const requestId = requestIdOf(request);
  let headers: Record<string, string> = {};
  try {
    const key = await acceptWidgetKey(request, env, ctx && ((p) => ctx.waitUntil(p)));
    // The app refuses it: 401, or 403 for a member's token.
    if (!key) return await app();
    const now = Date.now();
    const ledger = linkLedger(env, key.workspaceId);
    let guarded: Guarded<string> | Guarded<null> | PackedView;
    try {
      guarded = await (request.method === "GET"
        ? ledger.viewLink(key, linkId, now)
        : ledger.revokeLink(key, linkId));
    } catch (error) {
      // Counted apart, as the rate limit's middleware counts a call that never reached the ledger.
      const failed = errorAnswer(error, requestId, request);
      const counted = admissionAnswer(await ledger.admit(key));
      headers = counted.headers;
      if (counted.refusal) throw counted.refusal;
      return reply(failed.status, failed.body, { ...headers, ...failed.headers }, requestId);
    }
    if (typeof guarded === "string") {
      const { window, view } = unpackView(guarded);
      return reply(200, view, rateLimitHeaders(window), requestId);
    }
    const admitted = admissionAnswer(guarded.admission);
    headers = admitted.headers;
    if (!("result" in guarded)) throw admitted.refusal;
    const view = ledgerValue<string | null>(guarded.result);
    return reply(view === null ? 204 : 200, view, headers, requestId);
  } catch (error) {
    const failed = errorAnswer(error, requestId, request);
    return reply(failed.status, failed.body, { ...headers, ...failed.headers }, requestId);
  }
}

/**
 * An answer with `headers` and the request id, as Hono's `c.json` makes it: `body` is an error's
 * envelope, a view's JSON text, or null (204).
 */
function reply(
  status: number,
  body: ErrorBody | string | null,
  headers: Record<string, string>,
  requestId: string,
): Response {
  if (body === null) {
    return new Response(null, { status, headers: { ...headers, "x-request-id": requestId } });
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const all = { ...headers, "x-request-id": requestId, "content-type": "application/json" };
  return new Response(text, { status, headers: all });
}
