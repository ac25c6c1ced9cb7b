/**
 * What a dashboard browser spec does on each page (docs/dashboard.md): sign in by link, collect
 * the page's errors, take screenshots into test-results/browser/, and run axe-core.
 */
import fs from "node:fs";
import path from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { expect, type TestContext } from "vitest";
import { ROOT } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");

/** A signed-in page and what went wrong on it (page errors, console errors, HTTP >= 400). */
export type DashboardPage = { page: Page; problems: string[] };

/**
 * Opens a new context (clipboard allowed), follows the one-time `signInUrl` (`/sign-in#token=…`:
 * the page posts the token and asks to continue), presses Continue and waits for the dashboard.
 * @throws when the token is not taken from the fragment or the sign-in does not land on /app
 */
export async function signIn(
  browser: Browser,
  base: string,
  signInUrl: string,
  options: BrowserContextOptions = {},
): Promise<DashboardPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, ...options });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`[console] ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`[http ${response.status()}] ${response.url()}`);
  });
  await page.goto(signInUrl);
  const proceed = page.getByRole("button", { name: "Continue" });
  await proceed.waitFor();
  // The page took the token from the fragment and posted it: the address bar no longer holds it.
  const token = new URLSearchParams(new URL(signInUrl).hash.slice(1)).get("token");
  if (
    !token ||
    page.url().includes(token) ||
    new URL(page.url()).pathname !== "/sign-in/continue"
  ) {
    throw new Error(`signing in did not go through the fragment: ${signInUrl} -> ${page.url()}`);
  }
  await proceed.click();
  await page.waitForURL(/\/app/);
  await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
  return { page, problems };
}

/** Saves a screenshot as test-results/browser/`name`.png. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/**
 * Saves test-results/browser/`name`.png and expects no serious or critical axe-core finding on
 * the page as it is now (the finding names the screenshot).
 */
export async function look(page: Page, name: string): Promise<void> {
  await shot(page, name);
  expect(await seriousFindings(page), name).toEqual([]);
}

/**
 * For `afterEach`: when the test just failed, a screenshot of what `page` showed, named
 * `prefix`-failed-<the test's name>, to read beside the error.
 */
export async function shotOnFailure(
  context: TestContext,
  page: Page | undefined,
  prefix: string,
): Promise<void> {
  if (context.task.result?.state !== "fail" || !page) return;
  await shot(page, `${prefix}-failed-${context.task.name.slice(0, 40).replace(/\W+/g, "-")}`);
}

/** axe-core's serious and critical findings (evaluated over CDP, which the CSP does not govern). */
export async function seriousFindings(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** `value`, or an Error naming `what` when an earlier step (or beforeAll) failed to set it. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (an earlier step failed)`);
  return value;
}

/**
 * `url` on `localhost` instead of 127.0.0.1: WebAuthn needs a domain for its RP ID, never an IP
 * address, so a context that registers passkeys uses this origin.
 */
export function onLocalhost(url: string): string {
  return url.replace(/^http:\/\/127\.0\.0\.1(?=[:/])/, "http://localhost");
}

/**
 * Gives `page`'s browser Chromium's virtual authenticator over CDP (a platform authenticator with
 * resident keys that verifies the user at once), so WebAuthn ceremonies complete without a person.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * A link page's transcript (docs/dashboard.md#screens) as `[who, text]` per message (its own
 * `<li>`s, not those of an agent's Markdown list).
 */
export function transcript(page: Page): Promise<string[][]> {
  return page
    .locator(".transcript > li")
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector(".said-by strong")?.textContent ?? "",
        li.querySelector(".said")?.textContent ?? "",
      ]),
    );
}
