/**
 * The API reference at `/docs` (docs/README.md#api-reference) in a real browser with no internet:
 * every request to a host other than 127.0.0.1 is aborted, and the page must still render the
 * operations from our own `/openapi.json` with Scalar's bundle from our own static assets, under
 * its Content-Security-Policy without a single violation. Runs against an isolated `wrangler dev`
 * (./wrangler-server.ts) and Debian's Chromium; the screenshot goes to
 * test-results/browser/docs-offline.png.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");
/** The summary of `POST /v1/widget/launches`, one of the operations the reference must show. */
const OPERATION = "Create a personal conversation link";
const RENDER_TIMEOUT_MS = 30_000;
/** What the build copied (scripts/docs-assets.mjs): the pinned bundle's path. */
const MANIFEST = path.join(ROOT, "dist", "client", "docs-assets", "manifest.json");

let server: WranglerServer | undefined;
let browser: Browser | undefined;
/** The page of step a, used again by step b. */
let opened: { page: Page; watch: Watch } | undefined;

/** What the page did: every request, what was aborted, console lines and CSP violation events. */
type Watch = { requests: string[]; aborted: string[]; log: string[] };
type Violation = { directive: string; blocked: string; source: string };

const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url);
  // data: and blob: URLs never leave the browser; everything else must go to 127.0.0.1.
  return protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1";
};

/** A fresh context whose requests off 127.0.0.1 are aborted (and recorded), watched. */
async function openOfflinePage(): Promise<{ page: Page; watch: Watch }> {
  const context = await need(browser, "browser").newContext({ serviceWorkers: "block" });
  context.setDefaultTimeout(RENDER_TIMEOUT_MS);
  const watch: Watch = { requests: [], aborted: [], log: [] };
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    watch.aborted.push(url);
    return route.abort("internetdisconnected");
  });
  await context.routeWebSocket(/.*/, (ws) => {
    if (isLocal(ws.url())) return ws.connectToServer();
    watch.aborted.push(ws.url());
    return ws.close();
  });
  // Init scripts are injected by the browser's debugger, which the page's CSP does not govern.
  await context.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { cspViolations: Violation[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI || "inline",
        source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      });
    });
  });
  const page = await context.newPage();
  page.on("request", (r) => watch.requests.push(`${r.method()} ${r.url()}`));
  page.on("websocket", (ws) => watch.requests.push(`WS ${ws.url()}`));
  page.on("console", (m) => watch.log.push(`[console.${m.type()}] ${m.text()}`));
  page.on("pageerror", (e) => watch.log.push(`[pageerror] ${e.message}`));
  page.on("requestfailed", (r) =>
    watch.log.push(`[requestfailed] ${r.url()} ${r.failure()?.errorText ?? ""}`),
  );
  return { page, watch };
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`No ${what}: an earlier step failed; see its error.`);
  return value;
}

function describeRun(watch: Watch): string {
  const log = watch.log.join("\n") || "(empty)";
  return `requests:\n${watch.requests.join("\n")}\nbrowser log:\n${log}`;
}

/**
 * Nothing left 127.0.0.1, the console has no CSP message, and the only violation event is zod's
 * eval probe in the bundle (`Function("")` in a try; refused by `script-src 'self'`, zod then
 * validates without generated code, and Chromium logs nothing). Anything else fails.
 */
async function expectOfflineAndClean(page: Page, watch: Watch, script: string): Promise<void> {
  expect(watch.aborted, describeRun(watch)).toEqual([]);
  expect(watch.requests.filter((line) => !isLocal(line.split(" ")[1] ?? ""))).toEqual([]);
  expect(watch.log.filter((line) => /content.security.policy|refused to/i.test(line))).toEqual([]);
  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: Violation[] }).cspViolations,
  );
  const unexpected = violations.filter(
    (v) => !(v.directive === "script-src" && v.blocked === "eval" && v.source.includes(script)),
  );
  expect(unexpected, describeRun(watch)).toEqual([]);
  expect(violations.length).toBeLessThanOrEqual(1);
}

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // wrangler dev runs the build (wrangler.toml [build]), which writes the bundle and its manifest.
  server = await startWranglerServer();
  browser = await launchChromium();
});

afterEach(async ({ task }) => {
  if (task.result?.state !== "fail" || !opened || opened.page.isClosed()) return;
  const step = task.name.split(".")[0];
  await opened.page
    .screenshot({ path: path.join(SCREENSHOTS, `failed-docs-${step}.png`), fullPage: true })
    .catch(() => {});
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  await server?.stop();
});

describe("API reference (/docs) with no internet", () => {
  it("a. renders the operations from our own assets; nothing leaves 127.0.0.1", async () => {
    const base = need(server, "wrangler dev server (beforeAll failed)").base;
    const { script } = JSON.parse(fs.readFileSync(MANIFEST, "utf8")) as { script: string };
    opened = await openOfflinePage();
    const { page, watch } = opened;

    const response = await page.goto(`${base}/docs`, { waitUntil: "domcontentloaded" });
    expect(response?.status(), describeRun(watch)).toBe(200);
    const csp = (await response?.headerValue("content-security-policy")) ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|wss?:/);

    const heading = page.getByRole("heading", { name: OPERATION }).first();
    try {
      await heading.waitFor({ state: "visible" });
    } catch (error) {
      throw new Error(`"${OPERATION}" was not rendered.\n${describeRun(watch)}`, { cause: error });
    }
    // Whatever the reference loads once shown (icons, lazily loaded parts) has its chance too.
    await page.waitForLoadState("networkidle");
    await heading.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "docs-offline.png") });

    expect(watch.requests).toContain(`GET ${base}${script}`);
    expect(watch.requests).toContain(`GET ${base}/openapi.json`);
    await expectOfflineAndClean(page, watch, script);
  });

  it("b. Test Request reaches this API (connect-src 'self'); still offline, clean", async () => {
    const base = need(server, "wrangler dev server (beforeAll failed)").base;
    const { script } = JSON.parse(fs.readFileSync(MANIFEST, "utf8")) as { script: string };
    const { page, watch } = need(opened, "rendered reference (step a failed)");
    const section = page
      .locator("section", { has: page.getByRole("heading", { name: OPERATION }) })
      .first();
    await section
      .getByRole("button", { name: /test request/i })
      .first()
      .click();
    const answered = page.waitForResponse(
      (r) => r.url() === `${base}/v1/widget/launches` && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: /^send/i }).first().click();
    // The launch API refuses browsers (docs/api/launch.md); what matters is that the call got through.
    expect((await answered).status()).toBe(403);
    await page.getByText("browser_not_allowed").first().waitFor({ state: "visible" });
    await expectOfflineAndClean(page, watch, script);
  });
});
