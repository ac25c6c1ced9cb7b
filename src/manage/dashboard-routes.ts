/**
 * The dashboard's HTML shell (docs/dashboard.md): `/app` and every path under it, served only with
 * a live session (otherwise 303 to `/sign-in`), never cached, under a Content-Security-Policy
 * that allows same-origin scripts, styles and API calls and nothing inline. The hashed bundles
 * under `/app/assets/` come straight from the static assets, cached for a year.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { secureHeaders } from "hono/secure-headers";
import { authenticateSession, SIGN_IN } from "../auth/sessions";
import { database } from "../db/database";
import { createRouter } from "../platform/app";

/** The dashboard's CSP, as `secureHeaders` directives. */
export const APP_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

export const dashboardRouter = createRouter();
const headers = secureHeaders({ contentSecurityPolicy: APP_CSP, referrerPolicy: "no-referrer" });
dashboardRouter.use("/app", headers);
dashboardRouter.use("/app/*", headers);

async function shell(c: Context) {
  const assets = c.env.ASSETS as Fetcher | undefined;
  if (!assets) throw new Error("The ASSETS binding is missing; the dashboard cannot be served.");
  // Where the Worker runs first for them (tests, a misrouted request), bundles are passed through.
  if (c.req.path.startsWith("/app/assets/")) {
    const bundle = await assets.fetch(c.req.raw);
    return new Response(bundle.body, bundle); // mutable headers, for the middleware
  }
  const cookie = getCookie(c, SIGN_IN.cookie);
  const session = cookie ? await authenticateSession(database(c.env), cookie) : null;
  if (!session) return c.redirect("/sign-in", 303);
  // `/app/` is app/index.html (the assets' trailing-slash handling redirects the file's own name).
  const page = await assets.fetch(new URL("/app/", c.req.url));
  c.header("cache-control", "no-cache");
  return c.body(await page.text(), 200, { "content-type": "text/html; charset=utf-8" });
}

dashboardRouter.get("/app", shell);
dashboardRouter.get("/app/*", shell);
