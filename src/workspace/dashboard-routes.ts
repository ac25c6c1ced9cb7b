/**
 * The dashboard's HTML shell (docs/dashboard.md): `/app` and every path under it, served only with
 * a live session (otherwise 303 to `/sign-in`), never cached, under a Content-Security-Policy
 * that allows same-origin scripts, styles, API calls and frames and nothing inline; and a widget
 * preview's stand-in page, `/app/preview/{linkId}`, under a policy of its own. The hashed bundles
 * under `/app/assets/` come straight from the static assets, cached for a year.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { secureHeaders } from "hono/secure-headers";
import { previewPageHtml, previewPageLink, previewPagePolicy, previewPath } from "../agents";
import { authenticateSession, SIGN_IN } from "../auth";
import { database } from "../db/database";
import { launchAddresses } from "../launch";
import { createRouter } from "../platform/app";
import { baseUrl } from "../platform/origins";

/** The dashboard's CSP, as `secureHeaders` directives. */
export const APP_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  // The widget preview's stand-in page (docs/dashboard.md#widget-preview).
  frameSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

const headers = secureHeaders({ contentSecurityPolicy: APP_CSP, referrerPolicy: "no-referrer" });
// The preview page sets its own policy, which names the widget's origin; the rest is the same.
const previewHeaders = secureHeaders({ referrerPolicy: "no-referrer" });

/** The member of the request's live session, or null. */
async function sessionOf(c: Context) {
  const cookie = getCookie(c, SIGN_IN.cookie);
  return cookie ? await authenticateSession(database(c.env), cookie) : null;
}

async function shell(c: Context) {
  const assets = c.env.ASSETS as Fetcher | undefined;
  if (!assets) throw new Error("The ASSETS binding is missing; the dashboard cannot be served.");
  // Where the Worker runs first for them (tests, a misrouted request), bundles are passed through.
  if (c.req.path.startsWith("/app/assets/")) {
    const bundle = await assets.fetch(c.req.raw);
    return new Response(bundle.body, bundle); // mutable headers, for the middleware
  }
  if (!(await sessionOf(c))) return c.redirect("/sign-in", 303);
  // `/app/` is app/index.html (the assets' trailing-slash handling redirects the file's own name).
  const page = await assets.fetch(new URL("/app/", c.req.url));
  c.header("cache-control", "no-cache");
  return c.body(await page.text(), 200, { "content-type": "text/html; charset=utf-8" });
}

/**
 * A widget preview's stand-in page (docs/dashboard.md#widget-preview), for the member whose
 * preview link it is: the channel's embed tag with the link's token, never cached.
 */
async function previewPage(c: Context) {
  const session = await sessionOf(c);
  if (!session) return c.redirect("/sign-in", 303);
  const db = database(c.env);
  const { link, token } = await previewPageLink(
    db,
    c.env.SECRETS_KEY,
    session,
    c.req.param("id") ?? "",
  );
  const widgetOrigin = baseUrl(c.env, c.req.url);
  const { embedHtml } = launchAddresses(widgetOrigin, link.flowId, link.channelId, token);
  c.header("content-security-policy", previewPagePolicy(new URL(widgetOrigin).origin));
  c.header("cache-control", "no-store");
  return c.html(previewPageHtml(embedHtml, link.participantName ?? ""));
}

/**
 * The dashboard's shell and preview page: a router built by the full app on first use, never at
 * start-up (src/routes.ts).
 */
export function dashboardRouter() {
  const router = createRouter();

  router.use("/app", headers);
  router.use("/app/*", (c, next) =>
    c.req.path.startsWith(previewPath("")) ? previewHeaders(c, next) : headers(c, next),
  );

  router.get(previewPath(":id"), previewPage);
  router.get("/app", shell);
  router.get("/app/*", shell);

  return router;
}
