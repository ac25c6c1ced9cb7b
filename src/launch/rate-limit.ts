/**
 * The launch API's per-key rate limit (docs/api/launch.md#rate-limit): at most
 * `RATE_LIMIT_PER_MINUTE` (120) accepted calls of one widget key in any 60 s, counted exactly by
 * the workspace's LinkLedger. Every call with a valid key counts once, whatever it answers; every
 * answer carries the IETF `RateLimit-Policy` and `RateLimit` headers; a call over the limit gets 429
 * `rate_limited` with `Retry-After`, and a key revoked since it was cached gets 401 `invalid_key`.
 *
 * Counting rides on the call's one ledger RPC: the middleware hands the route a `CountedLedger`
 * (counted-ledger.ts) whose calls are admitted inside the ledger, and counts on its own only a call
 * that never reached it (refused earlier for its body).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { WidgetKeyEnv } from "../auth";
import { ApiError, invalidKey } from "../platform/errors";
import { type CountedLedger, countedLedger } from "./counted-ledger";
import { linkLedger } from "./ledger/client";
import type { Admission } from "./ledger/contract";
import type { ViewWindow } from "./ledger/packed-view";

const POLICY = "widget-key";

/** The Hono env of launch routes: the widget key and its counted ledger. */
export type LaunchEnv = WidgetKeyEnv & { Variables: { ledger: CountedLedger } };

/**
 * What an admission adds to the answer: the RateLimit headers (none for a revoked key), and the
 * error that replaces the answer when it refused the call (401 invalid_key, 429 rate_limited).
 */
export function admissionAnswer(admission: Admission): {
  headers: Record<string, string>;
  refusal: ApiError | null;
} {
  if (!admission.admitted && admission.reason === "key_revoked") {
    return { headers: {}, refusal: invalidKey() };
  }
  const decision = admission.rateLimit;
  const headers = rateLimitHeaders(decision);
  if (admission.admitted) return { headers, refusal: null };
  const refusal = new ApiError(
    429,
    "rate_limited",
    `More than ${decision.limit} requests per minute with this key; retry in ${decision.retryAfterSeconds} s.`,
    { headers: { "Retry-After": String(decision.retryAfterSeconds) } },
  );
  return { headers, refusal };
}

/** The IETF `RateLimit-Policy` and `RateLimit` headers of a counted call's window. */
export function rateLimitHeaders(window: ViewWindow): Record<string, string> {
  return {
    "RateLimit-Policy": `"${POLICY}";q=${window.limit};w=60`,
    RateLimit: `"${POLICY}";r=${window.remaining};t=${window.resetSeconds}`,
  };
}

/** Sets the RateLimit headers of an admission; throws 401 for a revoked key, 429 over the limit. */
function applyAdmission(c: Context, admission: Admission): void {
  const { headers, refusal } = admissionAnswer(admission);
  for (const name in headers) c.header(name, headers[name]);
  if (refusal) throw refusal;
}

/**
 * Counts the call of `c.var.widgetKey` exactly once and applies the outcome. Hono has turned an
 * error raised by a later middleware (413, 400) into its response by the time `next()` returns;
 * such a call is counted here, and a revoked key or the limit (401, 429) then replace that response,
 * as the order of checks says (docs/api/launch.md#order-of-checks).
 */
export const perKeyRateLimit = createMiddleware<LaunchEnv>(async (c, next) => {
  const key = c.var.widgetKey;
  const stub = linkLedger(c.env, key.workspaceId);
  let counted = false;
  c.set(
    "ledger",
    countedLedger(stub, (admission) => {
      counted = true;
      applyAdmission(c, admission);
    }),
  );
  await next();
  if (!counted) applyAdmission(c, await stub.admit(key));
});
