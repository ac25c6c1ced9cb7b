/**
 * What a dashboard browser spec does on each page (docs/dashboard.md): sign in by link, collect
 * the page's errors, take screenshots into test-results/browser/, and run axe-core.
 */
import fs from "node:fs";
import path from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { ROOT } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");

/** A signed-in page and what went wrong on it (page errors, console errors, HTTP >= 400). */
export type DashboardPage = { page: Page; problems: string[] };

/**
 * Opens a new context (clipboard allowed), follows the one-time `signInUrl`, presses Continue and
 * waits for the dashboard. @throws when the sign-in does not land on /app
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
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(/\/app/);
  await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
  return { page, problems };
}

/** Saves a screenshot as test-results/browser/`name`.png. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
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
