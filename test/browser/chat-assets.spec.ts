/**
 * How the chat page and the widget are served (docs/chat.md#assets-and-caching), against `wrangler
 * dev` with its static assets and `_headers`: the page names its script and styles under hashed
 * names cached for a year (immutable), the HTML revalidates (ETag, 304), `/widget.js` stays the
 * stable, revalidated address customers embed and loads the widget's hashed bundle; the budgets
 * hold (the chat's first script and styles under 15 KB gzip, the rating's, loaded after the end,
 * under 2 KB, the widget under 5 KB). In a browser, at desktop and 375 px, light and dark, a
 * customer's page with the embed tag gets the launcher and the chat from hashed files only, and the
 * rating's files only once the chat ended; a rating that cannot be loaded says so. Screenshots go
 * to test-results/browser/chat-10-*.png.
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
  waitForState,
} from "./chat-harness";
import { need } from "./dashboard-page";
import { startThirdPartySite } from "./third-party-site";

const YEAR_IMMUTABLE = "public, max-age=31536000, immutable";
const HASHED_CHAT = /\/assets\/chat-[A-Z0-9]{8}\.(js|css)/g;
const HASHED_WIDGET = /\/assets\/widget-[A-Z0-9]{8}\.js/;
const HASHED_RATING = /\/assets\/rating-[A-Z0-9]{8}\.(js|css)/g;

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
    // Named for later only: in meta tags, not as a script or stylesheet the page loads at once.
    const rating = html.match(HASHED_RATING) ?? [];
    expect(rating.map((path) => path.split(".").pop()).sort()).toEqual(["css", "js"]);
    expect(html).not.toMatch(/<(script|link)[^>]*\/assets\/rating-/);
    let ratingGzip = 0;
    for (const path of rating) {
      const asset = await get(path);
      expect(asset.response.status, path).toBe(200);
      expect(asset.response.headers.get("cache-control"), path).toBe(YEAR_IMMUTABLE);
      ratingGzip += asset.gzip;
    }
    expect(ratingGzip, "rating script and styles, gzip bytes").toBeLessThan(2_000);
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
        const ratingFiles = () => requested.filter((path) => /^\/assets\/rating-/.test(path));
        expect(ratingFiles(), "no rating before the end").toEqual([]);
        expect(await axeFindings(need(chatFrame, "chat frame"))).toEqual([]);
        expect(await hostPageFindings(page)).toEqual([]);
        await screenshot(host, "10-widget-from-hashed-bundles");
        // Ended in the widget's frame: the rating's two files come now, under the frame's CSP.
        const frame = page.frameLocator('iframe[title="Chat"]');
        await frame.locator("#end-chat").click();
        await frame.getByRole("dialog").getByRole("button", { name: "End chat" }).click();
        await frame.getByRole("group", { name: "How was this conversation?" }).waitFor();
        expect(
          ratingFiles()
            .map((path) => path.split(".").pop())
            .sort(),
        ).toEqual(["css", "js"]);
        expect(host.problems).toEqual([]);
        await closeChat(host);
      } finally {
        await site.close();
      }
    }
  });

  it("10. a rating whose files cannot be loaded says so, without a script error", async () => {
    const w = world();
    const link = await createLink(w);
    const chat = await openChat(w, link.url, need(VARIANTS[0], "variant"), async (page) => {
      await page.route(/\/assets\/rating-/, (route) => route.fulfill({ status: 503 }));
    });
    const { page } = chat;
    await waitForState(page, "open");
    await page.locator("#end-chat").click();
    await page.getByRole("dialog").getByRole("button", { name: "End chat" }).click();
    await waitForState(page, "ended");
    const status = page.getByRole("status").filter({ hasText: "The rating could not be loaded." });
    await status.waitFor();
    expect(await page.getByRole("radio").count()).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
    // The refused files show as failed requests in the console; no script error may follow.
    expect(chat.problems.filter((problem) => !problem.includes("503"))).toEqual([]);
    await closeChat(chat);
  });
});
