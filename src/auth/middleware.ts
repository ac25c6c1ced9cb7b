/**
 * Authentication middleware: widget keys with their rate limit on the launch API, member tokens on
 * the management API (spec 5, contract 2 and 3).
 */
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { workspaceLimiter } from "../launch/ledger/client";
import type { Admission } from "../launch/ledger/object";
import type { AppEnv } from "../platform/app";
import { ApiError, insufficientScope, invalidKey } from "../platform/errors";
import {
  authenticateMember,
  authenticateWidgetKey,
  MEMBER_TOKEN_PREFIX,
  readCredential,
  WIDGET_KEY_PREFIX,
} from "./credentials";

const POLICY = "widget-key";

/** Sets the RateLimit headers of an admission and throws for a revoked key (401) or the limit (429). */
function applyAdmission(c: Context<AppEnv>, admission: Admission): void {
  if (!admission.admitted && admission.reason === "key_revoked") throw invalidKey();
  const decision = admission.rateLimit;
  c.header("RateLimit-Policy", `"${POLICY}";q=${decision.limit};w=60`);
  c.header("RateLimit", `"${POLICY}";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!admission.admitted) {
    throw new ApiError(
      429,
      "rate_limited",
      `More than ${decision.limit} requests per minute with this key; retry in ${decision.retryAfterSeconds} s.`,
      { headers: { "Retry-After": String(decision.retryAfterSeconds) } },
    );
  }
}

/**
 * Launch API: resolves the widget key (401 invalid_key). The call is then counted exactly once by
 * the workspace limiter: handlers pass the admission of their one limiter call to `c.var.admit`.
 * Hono turns an error raised before that call (413, 400) into its response by the time `next()`
 * returns; such a call is counted here, and a revoked key or the rate limit (401, 429) then replace
 * that response, as the contract's check order says. A valid member token gets 403.
 */
export const requireWidgetKey = createMiddleware<AppEnv>(async (c, next) => {
  const credential = readCredential(c.req.raw.headers, true);
  if (credential === null || credential === "conflict") throw invalidKey();
  const db = drizzle(c.env.DB);
  const principal = await authenticateWidgetKey(db, credential, Date.now());
  if (!principal) {
    if (credential.startsWith(MEMBER_TOKEN_PREFIX) && (await authenticateMember(db, credential))) {
      throw insufficientScope("Member tokens cannot call the launch API; use a widget key.");
    }
    throw invalidKey();
  }
  c.set("widgetKey", principal);
  let admitted = false;
  c.set("admit", (admission) => {
    admitted = true;
    applyAdmission(c, admission);
  });
  await next();
  if (!admitted) {
    applyAdmission(c, await workspaceLimiter(c.env, principal.workspaceId).admit(principal));
  }
});

/** Management API: resolves a member token (401); a valid widget key gets 403 insufficient_scope. */
export const requireMember = createMiddleware<AppEnv>(async (c, next) => {
  const credential = readCredential(c.req.raw.headers, false);
  if (credential === null || credential === "conflict") throw invalidKey();
  const db = drizzle(c.env.DB);
  const principal = await authenticateMember(db, credential);
  if (!principal) {
    if (
      credential.startsWith(WIDGET_KEY_PREFIX) &&
      (await authenticateWidgetKey(db, credential, Date.now()))
    ) {
      throw insufficientScope("Widget keys can only create, look up and revoke links.");
    }
    throw invalidKey();
  }
  c.set("member", principal);
  await next();
});

/** Owners and admins write; members read (contract 2). */
export const requireWriter = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("member").role === "member") {
    throw insufficientScope("Only workspace owners and admins can do this.");
  }
  await next();
});
