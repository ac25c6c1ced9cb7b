/**
 * The dashboard's shell at /app (docs/dashboard.md): only with a live session (otherwise to
 * sign-in), a strict Content-Security-Policy, never cached; the hashed bundles it names are
 * served; `GET /v1/manage/me` tells the shell who is signed in.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SIGN_IN } from "../../src/auth/sessions";
import { expectJson, ORIGIN, seedWorkspace } from "../helpers/api";
import { sessionCookie } from "../helpers/session";

const get = (path: string, cookie?: string) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      headers: cookie ? { cookie: `${SIGN_IN.cookie}=${cookie}` } : {},
      redirect: "manual",
    }),
  );

describe("the dashboard's shell", () => {
  it("sends a browser without a session to sign in", async () => {
    for (const path of ["/app", "/app/agents", "/app/settings/api-access/widget-keys"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location")).toBe("/sign-in");
    }
    expect((await get("/app", "ds_not-a-session")).status).toBe(303);
    const page = await get("/sign-in");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("one-time link");
  });

  it("serves the shell to a signed-in member under a strict CSP, and the bundles it names", async () => {
    const ws = await seedWorkspace();
    const cookie = await sessionCookie(ws.ownerToken);
    const shell = await get("/app/settings/api-access/widget-keys", cookie);
    expect(shell.status).toBe(200);
    expect(shell.headers.get("cache-control")).toBe("no-cache");
    const csp = shell.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await shell.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await get(script as string, cookie);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    // The Overview's chart library (uPlot) is a chunk of its own, imported when the screen opens.
    const entry = await (await get(script as string, cookie)).text();
    const charts = /import\(`\.\/(Charts-[\w-]+\.js)`\)/.exec(entry)?.[1];
    expect(charts).toBeDefined();
    const staticImports = [...entry.matchAll(/from"\.\/([\w-]+\.js)"/g)].map((m) => m[1]);
    // The workflow editor (React Flow) is a chunk of its own too, imported when a canvas opens.
    const editor = /import\(`\.\/(Editor-[\w-]+\.js)`\)/.exec(entry)?.[1];
    expect(editor).toBeDefined();
    expect(await (await get(`/app/assets/${editor}`, cookie)).text()).toContain("react-flow__");
    // The first load: the entry and what it imports statically (issue 30: under 250 KB gzip).
    let size = 0;
    for (const name of [script as string, ...staticImports.map((n) => `/app/assets/${n}`)]) {
      const code = await (await get(name, cookie)).text();
      expect(code, name).not.toContain("u-over");
      expect(code, name).not.toContain("react-flow__");
      const gzipped = new Blob([code]).stream().pipeThrough(new CompressionStream("gzip"));
      size += (await new Response(gzipped).arrayBuffer()).byteLength;
    }
    expect(await (await get(`/app/assets/${charts}`, cookie)).text()).toContain("u-over");
    expect(size).toBeLessThan(250_000);

    const me = await expectJson<{ member: { role: string }; workspace: { slug: string } }>(
      await exports.default.fetch(
        new Request(`${ORIGIN}/v1/manage/me`, {
          headers: { cookie: `${SIGN_IN.cookie}=${cookie}` },
        }),
      ),
      200,
    );
    expect(me).toMatchObject({ member: { role: "owner" }, workspace: { slug: ws.slug } });
  });
});
