/**
 * Test helpers for the dashboard's session (docs/dashboard.md#sign-in): sign a member in through a
 * one-time link as a browser does, then send requests with the session cookie.
 */
import { exports } from "cloudflare:workers";
import { SIGN_IN } from "../../src/auth/sessions";
import { call, expectJson, ORIGIN } from "./api";

/**
 * The token of a sign-in link, `{origin}/sign-in#token=si_…` (docs/dashboard.md#sign-in).
 * @throws when the link has another form (the token anywhere but the fragment)
 */
export function signInLinkToken(url: string): string {
  const link = new URL(url);
  const token = new URLSearchParams(link.hash.slice(1)).get("token") ?? "";
  if (link.pathname !== "/sign-in" || link.search !== "" || !token.startsWith("si_")) {
    throw new Error(`not a sign-in link of the fragment form: ${url}`);
  }
  return token;
}

/** Signs in the member of `token` (a sign-in link, then its form): the session cookie's value. */
export async function sessionCookie(token: string): Promise<string> {
  const link = await expectJson<{ url: string }>(
    await call("POST", "/v1/manage/sign-in-links", { token, body: {} }),
    201,
  );
  const signed = await exports.default.fetch(
    new Request(`${ORIGIN}/sign-in`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: signInLinkToken(link.url) }),
      redirect: "manual",
    }),
  );
  const cookie = signed.headers.get("set-cookie") ?? "";
  if (!cookie.startsWith(`${SIGN_IN.cookie}=`)) throw new Error(`no session cookie: ${cookie}`);
  return cookie.slice(SIGN_IN.cookie.length + 1).split(";")[0] as string;
}

/**
 * A request with the session cookie, as the browser sends it; `body` objects go as JSON. Add the
 * dashboard's `x-requested-with` and `origin` through `headers` for a change.
 */
export function withSession(
  cookie: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.set("cookie", `${SIGN_IN.cookie}=${cookie}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: "manual",
    }),
  );
}

/** The headers the dashboard sends with a change (docs/dashboard.md#sign-in). */
export const DASHBOARD_HEADERS = { origin: ORIGIN, "x-requested-with": "agent-edge-dashboard" };
