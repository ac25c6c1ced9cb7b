/**
 * Signing in to the dashboard (docs/dashboard.md#sign-in): `POST /v1/manage/sign-in-links`,
 * `DELETE /v1/manage/sessions` (sign out everywhere), and the browser's side: `GET /sign-in` (the
 * page, whose script posts a link's token from the URL fragment to `POST /sign-in/continue`, which
 * asks to continue), `POST /sign-in` (uses the link, sets the session cookie, lands on `/app`),
 * `POST /sign-out`.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { secureHeaders } from "hono/secure-headers";
import { audited, recordAudit } from "../audit";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { isoTime } from "../platform/ids";
import { jsonBody } from "../platform/json-body";
import { answers, NoQuerySchema, noContent, operations } from "../platform/openapi";
import { appUrl } from "../platform/origins";
import { type MemberEnv, refuseCrossSiteForms } from "./middleware";
import { startSession } from "./session-cookie";
import {
  createSignInLink,
  describeSignInLink,
  endSession,
  endSessionsOf,
  redeemSignInLink,
  SIGN_IN,
} from "./sessions";
import {
  continuePage,
  SIGN_IN_CSP,
  signedOutPage,
  signInPage,
  unusableLinkPage,
} from "./sign-in-pages";

const op = operations("Sign-in", "memberToken");

const pageHeaders = secureHeaders({
  contentSecurityPolicy: SIGN_IN_CSP,
  referrerPolicy: "no-referrer",
});

const noStore = (c: Context) => c.header("cache-control", "no-store");

/** The `token` field of a posted form, or "" (no form, no such field). */
async function formToken(c: Context): Promise<string> {
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  return typeof form.token === "string" ? form.token : "";
}

/**
 * The member API's sign-in links and sessions: a router built by the full app on first use, never
 * at start-up (src/routes.ts).
 */
export function signInLinksRouter() {
  const router = createRouter<MemberEnv>();

  router.openapi(
    audited(
      "member.sign_in_link_created",
      { target: ["member", ["json:memberId", "actor"]] },
      {
        ...op(
          "post",
          "/v1/manage/sign-in-links",
          "createSignInLink",
          "Create a one-time sign-in link (15 minutes, single use)",
        ),
        description:
          "For yourself (no `memberId`, or your own), or, by an Owner or Admin, for another member of the workspace. The URL is `{APP_URL}/sign-in#token=si_…`, the token in the fragment, which no request (and so no request log) carries; opening it in a browser signs in to the dashboard at /app (docs/dashboard.md#sign-in).",
        middleware: jsonBody(4_096),
        request: {
          body: {
            required: true,
            content: {
              "application/json": {
                schema: z.strictObject({ memberId: z.string().min(1).max(64).optional() }),
              },
            },
          },
        },
        responses: answers(
          201,
          z.object({ url: z.string(), expiresAt: z.string() }).openapi("SignInLink"),
          "The link; its token is shown only here",
          "not_found",
        ),
      },
    ),
    async (c) => {
      const member = c.get("member");
      const memberId = c.req.valid("json").memberId ?? member.memberId;
      const link = await createSignInLink(
        database(c.env),
        member.workspaceId,
        memberId,
        appUrl(c.env, c.req.url),
        Date.now(),
        member,
      );
      return c.json({ url: link.url, expiresAt: isoTime(link.expiresAt) }, 201);
    },
  );

  router.openapi(
    audited(
      "session.signed_out",
      { target: ["member", "actor"] },
      {
        ...op(
          "delete",
          "/v1/manage/sessions",
          "signOut",
          "Sign out everywhere: end every dashboard session of the caller",
        ),
        request: { query: NoQuerySchema },
        responses: noContent("Ended"),
      },
    ),
    async (c) => {
      await endSessionsOf(database(c.env), c.get("member").memberId);
      return c.body(null, 204);
    },
  );

  return router;
}

/** The browser's side of signing in: HTML pages and form posts, same-origin only. */
export function signInPagesRouter() {
  const router = createRouter();

  router.use("/sign-in/*", pageHeaders);
  router.use("/sign-in", pageHeaders, refuseCrossSiteForms);
  router.use("/sign-in/continue", refuseCrossSiteForms);
  router.use("/sign-out", pageHeaders, refuseCrossSiteForms);

  router.get("/sign-in", (c) => {
    noStore(c);
    return c.html(signInPage());
  });

  // The link's token arrives from the page's script (it reads the fragment, which no request
  // carries); reading it uses nothing up, so a scanner that runs scripts signs no one in.
  router.post("/sign-in/continue", async (c) => {
    noStore(c);
    const token = await formToken(c);
    const who = await describeSignInLink(database(c.env), token);
    return who ? c.html(continuePage(token, who)) : c.html(unusableLinkPage(), 410);
  });

  // Links once carried the token in the path, where request logs keep it; that form is over
  // (docs/dashboard.md#sign-in): its token is not read, and it is never used up here.
  router.get("/sign-in/:token", (c) => {
    noStore(c);
    return c.html(unusableLinkPage(), 410);
  });

  router.post("/sign-in", async (c) => {
    noStore(c);
    const session = await redeemSignInLink(database(c.env), await formToken(c));
    if (!session) return c.html(unusableLinkPage(), 410);
    await startSession(c, session, { type: "sign_in_link", id: session.linkId });
    return c.redirect("/app", 303);
  });

  router.post("/sign-out", async (c) => {
    noStore(c);
    const token = getCookie(c, SIGN_IN.cookie);
    const ended = token ? await endSession(database(c.env), token) : null;
    if (ended) {
      await recordAudit(c.env, c.req.raw, {
        workspaceId: ended.workspaceId,
        actor: { type: "member", id: ended.memberId },
        action: "session.signed_out",
        target: { type: "session", id: ended.id },
      });
    }
    deleteCookie(c, SIGN_IN.cookie, { path: "/", secure: true });
    return c.html(signedOutPage());
  });

  return router;
}
