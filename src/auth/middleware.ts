/**
 * Authentication middleware: widget keys with their rate limit on the launch API, member tokens on
 * the management API (docs/security.md#credentials, docs/api/manage.md, docs/api/launch.md).
 */

import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { database } from "../db/database";
import type { AppEnv } from "../platform/app";
import { readCredential } from "../platform/bearer";
import { ApiError, insufficientScope, invalidKey } from "../platform/errors";
import { jsonBody } from "../platform/json-body";
import { log } from "../platform/log";
import {
  authenticateMember,
  authenticateWidgetKey,
  isLiveWidgetKey,
  isOperatorToken,
  MEMBER_TOKEN_PREFIX,
  type MemberPrincipal,
  noteWidgetKeyUse,
  type WidgetKeyPrincipal,
} from "./credentials";
import { authenticateSession, SIGN_IN } from "./sessions";

/** The Hono env of routes behind `requireWidgetKey`. */
export type WidgetKeyEnv = AppEnv & { Variables: { widgetKey: WidgetKeyPrincipal } };
/** The Hono env of routes behind `requireMember`. */
export type MemberEnv = AppEnv & { Variables: { member: MemberPrincipal } };

/**
 * The widget key of a launch API request, when it is a valid one (docs/security.md#credentials):
 * read from `Authorization: Bearer` or `x-api-key`, checked by its digest (cached per isolate), its
 * use noted at most once a minute (kept alive by `waitUntil` when there is one).
 * @returns the principal, or null for a missing, conflicting, unknown, revoked or expired key
 */
export async function acceptWidgetKey(
  request: Request,
  env: AppEnv["Bindings"],
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
): Promise<WidgetKeyPrincipal | null> {
  const credential = readCredential(request.headers, true);
  if (credential === null || credential === "conflict") return null;
  const db = database(env);
  const principal = await authenticateWidgetKey(db, credential, Date.now());
  if (!principal) return null;
  const noted = noteWidgetKeyUse(db, principal.keyId, Date.now());
  if (noted) {
    const written = noted.catch((error: unknown) => log("warn", "key_use_not_noted", { error }));
    // Without an execution context (an embedding, a test) the write still runs, unawaited.
    waitUntil?.(written);
  }
  return principal;
}

/**
 * Launch API: resolves the widget key (401 invalid_key; a valid member token gets 403
 * insufficient_scope). Revocation after the key was first read is refused by the link ledger when
 * the call is counted (`perKeyRateLimit`).
 */
export const requireWidgetKey = createMiddleware<WidgetKeyEnv>(async (c, next) => {
  let waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    waitUntil = (promise) => ctx.waitUntil(promise);
  } catch {}
  const principal = await acceptWidgetKey(c.req.raw, c.env, waitUntil);
  if (!principal) {
    const credential = readCredential(c.req.raw.headers, true);
    if (
      typeof credential === "string" &&
      credential.startsWith(MEMBER_TOKEN_PREFIX) &&
      (await authenticateMember(database(c.env), credential))
    ) {
      throw insufficientScope("Member tokens cannot call the launch API; use a widget key.");
    }
    throw invalidKey();
  }
  c.set("widgetKey", principal);
  await next();
});

/**
 * Management API: resolves a member token (401); a valid widget key gets 403 insufficient_scope.
 * Without an Authorization header, the dashboard's session cookie is accepted instead
 * (docs/dashboard.md#sign-in); a state-changing call with it must come from this origin and
 * carry `X-Requested-With`, which no other site can send without CORS (403 cross_site_request).
 */
export const requireMember = createMiddleware<MemberEnv>(async (c, next) => {
  const credential = readCredential(c.req.raw.headers, false);
  const db = database(c.env);
  const cookie = credential === null ? getCookie(c, SIGN_IN.cookie) : undefined;
  if (cookie !== undefined) {
    const session = await authenticateSession(db, cookie);
    if (!session) throw invalidKey();
    if (!SAFE_METHODS.has(c.req.method)) refuseCrossSite(c.req.raw);
    c.set("member", session);
    return await next();
  }
  if (credential === null || credential === "conflict") throw invalidKey();
  const principal = await authenticateMember(db, credential);
  if (!principal) {
    // Read past the isolate's key cache: a key revoked a moment ago is no credential at all.
    if (await isLiveWidgetKey(db, credential, Date.now())) {
      throw insufficientScope(
        "Widget keys can only create, look up and revoke links, and erase a person.",
      );
    }
    throw invalidKey();
  }
  c.set("member", principal);
  await next();
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a change that another site could have made: an `Origin` or `Sec-Fetch-Site` naming
 * another site, or no `X-Requested-With`. @throws 403 cross_site_request
 */
export function refuseCrossSite(request: Request): void {
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const crossSite =
    (origin !== null && origin !== new URL(request.url).origin) ||
    (site !== null && site !== "same-origin" && site !== "none") ||
    !request.headers.has("x-requested-with");
  if (crossSite) {
    throw new ApiError(
      403,
      "cross_site_request",
      "A change made with the session cookie must come from the dashboard (same origin, X-Requested-With).",
    );
  }
}

/**
 * The sign-in and sign-out form posts (docs/dashboard.md#sign-in) come from this site's own pages:
 * a post whose `Sec-Fetch-Site` is `same-origin` or whose `Origin` is ours passes, any other (another
 * site's, or one that names neither) is refused. A form cannot send `X-Requested-With`, so the
 * browser's own headers are the check. @throws 403 cross_site_request
 */
export const refuseCrossSiteForms = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const ours =
      c.req.header("sec-fetch-site") === "same-origin" ||
      c.req.header("origin") === new URL(c.req.url).origin;
    if (!ours) {
      throw new ApiError(
        403,
        "cross_site_request",
        "Signing in and out is accepted from this site's own pages only; this form was posted from another site.",
      );
    }
  }
  await next();
});

/** Owners and admins write; members read (docs/api/manage.md). */
export const requireWriter = createMiddleware<MemberEnv>(async (c, next) => {
  if (c.get("member").role === "member") {
    throw insufficientScope("Only workspace owners and admins can do this.");
  }
  await next();
});

/**
 * The middleware of a change by owners and admins with a JSON body: `requireWriter` first, so a
 * member's call is refused (403) before its body is read, then `jsonBody` (413 past `maxBytes`).
 */
export function writerWithJson(maxBytes: number, options: { optional?: boolean } = {}) {
  return [requireWriter, ...jsonBody(maxBytes, options)];
}

/** The operator API's credential: `OPERATOR_TOKEN` (or, during a rotation, a previous one). */
export const requireOperator = createMiddleware<AppEnv>(async (c, next) => {
  const credential = readCredential(c.req.raw.headers, false);
  if (
    credential === null ||
    credential === "conflict" ||
    !(await isOperatorToken(credential, c.env))
  ) {
    throw invalidKey();
  }
  await next();
});
