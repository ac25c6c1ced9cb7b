import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";

describe("GET /chat (the hosted chat page)", () => {
  it("serves the page with a strict policy: own script only, no Referer, revalidated", async () => {
    const response = await call("GET", "/chat");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const html = await response.text();
    expect(html).toMatch(/<script src="\/assets\/chat-[A-Z0-9]+\.js" defer><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/chat-[A-Z0-9]+\.css">/);
    expect(html).toContain('id="messages"');
    // The token lives in the fragment; the page never puts it in a query string or inline script.
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });

  it("answers a revalidation with 304 while the deployment is the same (docs/chat.md#assets-and-caching)", async () => {
    const first = await call("GET", "/chat");
    const tag = first.headers.get("etag");
    expect(tag).toBeTruthy();
    await first.text();
    const again = await call("GET", "/chat", { headers: { "if-none-match": tag as string } });
    expect(again.status).toBe(304);
  });

  it("names bundles that exist in the static assets, and only under their hashed names", async () => {
    const html = await (await call("GET", "/chat")).text();
    const named = html.match(/\/assets\/chat-[A-Z0-9]+\.(js|css)/g) ?? [];
    expect(named).toHaveLength(2);
    const assets = env.ASSETS as Fetcher;
    for (const path of named) {
      const asset = await assets.fetch(new URL(path, "https://edge.test"));
      expect(asset.status, path).toBe(200);
      await asset.arrayBuffer();
    }
    const unhashed = await assets.fetch(new URL("/chat.js", "https://edge.test"));
    expect(unhashed.status).toBe(404);
    await unhashed.arrayBuffer();
  });
});
