/**
 * Signing in to the dashboard (docs/dashboard.md#sign-in): one-time links with the token in the
 * fragment (never in a URL a request log keeps), the session cookie and what it may do, CSRF
 * refusals, expiry, sign-out and the end of a removed member's sessions.
 */
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SIGN_IN } from "../../src/auth/sessions";
import {
  call,
  errorCode,
  expectJson,
  OPERATOR_TOKEN,
  ORIGIN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { signInLinkToken } from "../helpers/session";

const COOKIE = SIGN_IN.cookie;

/** A browser request: the cookie, and for changes the dashboard's own headers unless overridden. */
function browser(
  method: string,
  path: string,
  cookie: string | null,
  options: { headers?: Record<string, string>; body?: BodyInit } = {},
) {
  const headers = new Headers(options.headers);
  if (cookie) headers.set("cookie", `${COOKIE}=${cookie}`);
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers, body: options.body, redirect: "manual" }),
  );
}

const dashboard = {
  origin: ORIGIN,
  "x-requested-with": "agent-edge",
  "sec-fetch-site": "same-origin",
};

async function signInLink(ws: Workspace, token = ws.ownerToken, memberId?: string) {
  return expectJson<{ url: string; expiresAt: string }>(
    await call("POST", "/v1/manage/sign-in-links", { token, body: memberId ? { memberId } : {} }),
    201,
  );
}

const form = { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" };

/** What the sign-in page's script does with the link's fragment: post its token to continue. */
function continueWith(token: string, headers: Record<string, string> = form) {
  return browser("POST", "/sign-in/continue", null, {
    headers,
    body: new URLSearchParams({ token }),
  });
}

/**
 * Opens the link as a browser does: the sign-in page (the fragment stays in the browser), its
 * script's post of the token (the page asking to continue), then that page's form: the session
 * cookie's value.
 */
async function signIn(url: string): Promise<string> {
  const token = signInLinkToken(url);
  const signInPage = await browser("GET", new URL(url).pathname, null);
  expect(signInPage.status).toBe(200);
  const html = await signInPage.text();
  expect(html).toContain('<form id="link" method="post" action="/sign-in/continue" hidden>');
  expect(html).toContain("ask your workspace's Owner or an Admin");
  expect(html).not.toContain("POST /v1/manage");
  expect(html).toContain('<script src="/sign-in.js" defer></script>');
  const page = await continueWith(token);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('action="/sign-in"');
  const posted = await browser("POST", "/sign-in", null, {
    headers: form,
    body: new URLSearchParams({ token }),
  });
  expect(posted.status).toBe(303);
  expect(posted.headers.get("location")).toBe("/app");
  const setCookie = posted.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(new RegExp(`^${COOKIE}=ds_`));
  for (const attribute of ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]) {
    expect(setCookie).toContain(attribute);
  }
  return setCookie.slice(COOKIE.length + 1).split(";")[0] as string;
}

afterEach(() => vi.useRealTimers());

describe("sign-in links", () => {
  it("sign a member in once; the session cookie works on the management API", async () => {
    const ws = await seedWorkspace();
    const link = await signInLink(ws);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    const token = signInLinkToken(link.url);
    expect(link.url).toBe(`${ORIGIN}/sign-in#token=${token}`);
    const page = await continueWith(token);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain("Olga Owner");
    // Opening the page uses nothing up (mail scanners fetch links); continuing does.
    const cookie = await signIn(link.url);
    const agents = await browser("GET", "/v1/manage/agents", cookie);
    expect(agents.status).toBe(200);
    const again = await browser("POST", "/sign-in", null, {
      headers: form,
      body: new URLSearchParams({ token }),
    });
    expect(again.status).toBe(410);
    expect((await continueWith(token)).status).toBe(410);
  });

  it("never puts the token in a path: the old form opens nothing and uses nothing up", async () => {
    const ws = await seedWorkspace();
    const link = await signInLink(ws);
    const token = signInLinkToken(link.url);
    const old = await browser("GET", `/sign-in/${token}`, null);
    expect(old.status).toBe(410);
    const page = await old.text();
    expect(page).toContain("This sign-in link cannot be used");
    // Whom to ask, in the dashboard's words, not an API call a locked-out person cannot make.
    expect(page).toContain("ask your workspace's Owner or an Admin");
    expect(page).toContain("<strong>Sign-in link</strong>");
    expect(page).not.toContain("POST /v1/manage");
    expect(page).not.toContain(token);
    expect(page).not.toContain("Olga Owner");
    // The link still works, from its fragment.
    const cookie = await signIn(link.url);
    expect((await browser("GET", "/v1/manage/agents", cookie)).status).toBe(200);
  });

  it("refuses a form posted from another site: 403 cross_site_request, with a sentence", async () => {
    const ws = await seedWorkspace();
    const token = signInLinkToken((await signInLink(ws)).url);
    const type = { "content-type": "application/x-www-form-urlencoded" };
    const cookie = await signIn((await signInLink(ws)).url);
    const foreign = [
      { ...type, origin: "https://evil.test" },
      { ...type, origin: "https://evil.test", "sec-fetch-site": "cross-site" },
      { ...type, "sec-fetch-site": "same-site" },
      type, // neither header: nothing says it came from here
      { origin: "https://evil.test", "content-type": "application/json" },
    ];
    for (const path of ["/sign-in", "/sign-in/continue", "/sign-out"]) {
      for (const headers of foreign) {
        const response = await browser("POST", path, path === "/sign-out" ? cookie : null, {
          headers,
          body: new URLSearchParams({ token }),
        });
        const body = await expectJson<{ error: { code: string; message: string } }>(response, 403);
        expect([path, headers, body.error.code]).toEqual([path, headers, "cross_site_request"]);
        expect(body.error.message).toMatch(/^Signing in and out .+ another site\.$/);
      }
    }
    // Nothing was used up or ended: the link and the session still work.
    expect((await browser("GET", "/v1/manage/agents", cookie)).status).toBe(200);
    const sameOrigin = { ...type, "sec-fetch-site": "same-origin" };
    expect((await continueWith(token, sameOrigin)).status).toBe(200);
    const posted = await browser("POST", "/sign-in", null, {
      headers: sameOrigin,
      body: new URLSearchParams({ token }),
    });
    expect(posted.status).toBe(303);
  });

  it("refuses expired links and members signing in others", async () => {
    const ws = await seedWorkspace();
    const link = await signInLink(ws);
    const token = signInLinkToken(link.url);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    const late = await browser("POST", "/sign-in", null, {
      headers: form,
      body: new URLSearchParams({ token }),
    });
    expect(late.status).toBe(410);
    vi.useRealTimers();

    const invited = await expectJson<{
      member: { id: string };
      memberToken: string;
      signInUrl: string;
    }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `m-${Date.now()}@example.test`, name: "Mo", role: "member" },
      }),
      201,
    );
    expect(signInLinkToken(invited.signInUrl)).toMatch(/^si_[A-Za-z0-9_-]{43}$/);
    const byMember = await call("POST", "/v1/manage/sign-in-links", {
      token: invited.memberToken,
      body: { memberId: ws.ownerId },
    });
    expect(await errorCode(byMember)).toBe("insufficient_scope");
    await signInLink(ws, invited.memberToken); // for itself: allowed
    // An Admin signs in members only: signing in as the Owner would take the workspace over.
    const admin = await expectJson<{ member: { id: string }; memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `a-${Date.now()}@example.test`, name: "Ann", role: "admin" },
      }),
      201,
    );
    const asOwner = await call("POST", "/v1/manage/sign-in-links", {
      token: admin.memberToken,
      body: { memberId: ws.ownerId },
    });
    expect(await errorCode(asOwner)).toBe("insufficient_scope");
    await signInLink(ws, admin.memberToken, invited.member.id);
    await signInLink(ws, ws.ownerToken, admin.member.id);
    await signInLink(ws, ws.ownerToken, invited.member.id); // an owner for another: allowed
    const other = await seedWorkspace();
    const foreign = await call("POST", "/v1/manage/sign-in-links", {
      token: ws.ownerToken,
      body: { memberId: other.ownerId },
    });
    expect(await errorCode(foreign)).toBe("not_found");
  });

  it("gives the operator's new workspace owner a sign-in link", async () => {
    const created = await expectJson<{ signInUrl: string }>(
      await call("POST", "/v1/operator/workspaces", {
        token: OPERATOR_TOKEN,
        body: { name: "Fresh", owner: { email: "fresh@example.com", name: "Fay" } },
      }),
      201,
    );
    const cookie = await signIn(created.signInUrl);
    expect((await browser("GET", "/v1/manage/members", cookie)).status).toBe(200);
  });
});

describe("the session cookie", () => {
  it("changes things only from the dashboard: same origin and X-Requested-With", async () => {
    const ws = await seedWorkspace();
    const cookie = await signIn((await signInLink(ws)).url);
    const body = JSON.stringify({ name: "from the dashboard" });
    const json = { "content-type": "application/json" };
    const post = (headers: Record<string, string>) =>
      browser("POST", "/v1/manage/widget-keys", cookie, { headers: { ...json, ...headers }, body });
    expect(await errorCode(await post({ origin: ORIGIN }))).toBe("cross_site_request");
    const evil = { ...dashboard, origin: "https://evil.test" };
    expect(await errorCode(await post(evil))).toBe("cross_site_request");
    const sameSite = { ...dashboard, "sec-fetch-site": "same-site" };
    expect(await errorCode(await post(sameSite))).toBe("cross_site_request");
    expect((await post(dashboard)).status).toBe(201);
  });

  it("ends after 12 idle hours, after 7 days, on sign-out and sign-out everywhere", async () => {
    const ws = await seedWorkspace();
    const idle = await signIn((await signInLink(ws)).url);
    const kept = await signIn((await signInLink(ws)).url);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    // `kept` is used every 11 hours; `idle` never again.
    for (let hours = 11; hours <= 7 * 24; hours += 11) {
      vi.setSystemTime(start + hours * 3_600_000);
      const expected = hours * 3_600_000 < SIGN_IN.absoluteMs ? 200 : 401;
      expect((await browser("GET", "/v1/manage/agents", kept)).status).toBe(expected);
      if (hours === 22) expect((await browser("GET", "/v1/manage/agents", idle)).status).toBe(401);
    }
    vi.setSystemTime(start + SIGN_IN.absoluteMs + 1);
    expect((await browser("GET", "/v1/manage/agents", kept)).status).toBe(401);
    vi.useRealTimers();

    const here = await signIn((await signInLink(ws)).url);
    const elsewhere = await signIn((await signInLink(ws)).url);
    const out = await browser("POST", "/sign-out", here, {
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await browser("GET", "/v1/manage/agents", here)).status).toBe(401);
    expect((await browser("GET", "/v1/manage/agents", elsewhere)).status).toBe(200);
    const everywhere = await browser("DELETE", "/v1/manage/sessions", elsewhere, {
      headers: dashboard,
    });
    expect(everywhere.status).toBe(204);
    expect((await browser("GET", "/v1/manage/agents", elsewhere)).status).toBe(401);
  });

  it("ends when the member is removed; a member's cookie cannot change anything", async () => {
    const ws = await seedWorkspace();
    const invited = await expectJson<{ member: { id: string }; signInUrl: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `r-${Date.now()}@example.test`, name: "Ray", role: "member" },
      }),
      201,
    );
    const cookie = await signIn(invited.signInUrl);
    const change = await browser("POST", "/v1/manage/widget-keys", cookie, {
      headers: { ...dashboard, "content-type": "application/json" },
      body: JSON.stringify({ name: "nope" }),
    });
    expect(await errorCode(change)).toBe("insufficient_scope");
    const removed = await call("DELETE", `/v1/manage/members/${invited.member.id}`, {
      token: ws.ownerToken,
    });
    expect(removed.status).toBe(204);
    expect((await browser("GET", "/v1/manage/agents", cookie)).status).toBe(401);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE member_id = ?")
      .bind(invited.member.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
