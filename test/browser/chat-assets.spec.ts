/**
 * How the chat page and the widget are served (docs/chat.md#assets-and-caching), against `wrangler
 * dev` with its static assets and `_headers`: the page names its script and styles under hashed
 * names cached for a year (immutable), the HTML revalidates (ETag, 304), `/widget.js` stays the
 * stable, revalidated address customers embed and loads the widget's hashed bundle; the budgets
 * hold (chat script and styles under 15 KB gzip, the widget under 5 KB). In a browser, at desktop
 * and 375 px, light and dark, a customer's page with the embed tag gets the launcher and the chat
 * from hashed files only. Screenshots go to test-results/browser/chat-10-*.png.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  axeFindings,
  closeChat,
  createLink,
  hostPageFindings,
  openChat,
  screenshot,
  setUpChatWorld,
  VARIANTS,
} from "./chat-harness";
import { need } from "./dashboard-page";
import { startThirdPartySite } from "./third-party-site";

const YEAR_IMMUTABLE = "public, max-age=31536000, immutable";
const HASHED_CHAT = /\/assets\/chat-[A-Z0-9]{8}\.(js|css)/g;
const HASHED_WIDGET = /\/assets\/widget-[A-Z0-9]{8}\.js/;

const world = setUpChatWorld();

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${world().server.base}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body, gzip: gzipSync(body).byteLength };
}

describe("the chat's static assets", () => {
  it("10. hashed bundles cached for a year, HTML and /widget.js revalidated, budgets held", async () => {
    const page = await get("/chat");
    expect(page.response.headers.get("cache-control")).toBe("no-cache");
    const etag = page.response.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await get("/chat", { "if-none-match": etag as string })).response.status).toBe(304);

    const html = page.body.toString("utf8");
    const named = html.match(HASHED_CHAT) ?? [];
    expect(named.map((path) => path.split(".").pop()).sort()).toEqual(["css", "js"]);
    let chatGzip = 0;
    for (const path of named) {
      const asset = await get(path);
      expect(asset.response.status, path).toBe(200);
      expect(asset.response.headers.get("cache-control"), path).toBe(YEAR_IMMUTABLE);
      chatGzip += asset.gzip;
    }
    expect(chatGzip, "chat script and styles, gzip bytes").toBeLessThan(15_000);
    for (const old of ["/chat.js", "/chat.css"]) {
      expect((await get(old)).response.status, old).toBe(404);
    }

    const loader = await get("/widget.js");
    expect(loader.response.status).toBe(200);
    expect(loader.response.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const loaderTag = loader.response.headers.get("etag");
    expect(loaderTag).toBeTruthy();
    expect(
      (await get("/widget.js", { "if-none-match": loaderTag as string })).response.status,
    ).toBe(304);
    const bundlePath = HASHED_WIDGET.exec(loader.body.toString("utf8"))?.[0];
    expect(bundlePath, "the loader names the hashed widget bundle").toBeDefined();
    const bundle = await get(bundlePath as string);
    expect(bundle.response.headers.get("cache-control")).toBe(YEAR_IMMUTABLE);
    expect(loader.gzip + bundle.gzip, "widget loader and bundle, gzip bytes").toBeLessThan(5_000);
  });

  it("10. a customer's page with the embed tag gets the launcher and the chat from hashed files", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const site = await startThirdPartySite(
        `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,"></head><body><main><h1>Customer site</h1></main>${link.embedHtml}</body></html>`,
      );
      try {
        const requested: string[] = [];
        const host = await openChat(w, site.url, variant, async (page) => {
          page.on("request", (request) => requested.push(new URL(request.url()).pathname));
        });
        const { page } = host;
        await page.locator("#agent-edge-launcher").click();
        await page
          .frameLocator('iframe[title="Chat"]')
          .locator("#messages .message")
          .first()
          .waitFor();
        const chatFrame = page.frames().find((frame) => frame.url().includes("/chat"));
        expect(requested).toContain("/widget.js");
        expect(
          requested.some((path) => HASHED_WIDGET.test(path)),
          "hashed widget",
        ).toBe(true);
        expect(requested.filter((path) => /^\/assets\/chat-/.test(path))).toHaveLength(2);
        expect(requested).not.toContain("/chat.js");
        expect(await axeFindings(need(chatFrame, "chat frame"))).toEqual([]);
        expect(await hostPageFindings(page)).toEqual([]);
        await screenshot(host, "10-widget-from-hashed-bundles");
        expect(host.problems).toEqual([]);
        await closeChat(host);
      } finally {
        await site.close();
      }
    }
  });
});
