/**
 * How fast the dashboard's Agents screen becomes usable (issue 14: "interactive in under 1 s on
 * `npm run dev`"), run by `npm run bench` (or alone: `node scripts/bench-dashboard.mjs`).
 *
 * Starts the service as `npm run dev` does (scripts/local-server.mjs: temporary state, 127.0.0.1),
 * seeds the demo workspace, signs in with Debian's Chromium (CHROMIUM_PATH) and opens
 * `/app/agents` BENCH_DASHBOARD_OPENS (20) times in a fresh browser context each (nothing cached:
 * the first visit) and as many times again in one context (assets cached: a return visit). Each
 * open is timed in the page, from the navigation's start to the moment the agents table shows the
 * demo agent and **New agent** can be pressed. Bounded: at most 60 s of opening in all. Prints
 * the medians and the 95th percentiles, writes bench-results/dashboard.json; exit code 0 once
 * measured (the target is reported, not enforced), 1 when the server or the browser failed.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { seedDemoWorkspace } from "./demo-seed.mjs";
import { fetchApi, ROOT, startLocalServer } from "./local-server.mjs";

const OPENS = Math.min(100, Math.max(1, Number(process.env.BENCH_DASHBOARD_OPENS) || 20));
const BUDGET_MS = 60_000;
const TARGET_MS = 1_000;
const RESULTS_FILE = path.join(ROOT, "bench-results", "dashboard.json");

/** The `p`-th percentile (0..1) of `values`, nearest rank. */
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
};

/**
 * Opens `/app/agents` in `page` and returns the milliseconds from the navigation's start until
 * the demo agent's row is shown and New agent is enabled, as the page's own clock measures them.
 */
async function timeAgents(page, base) {
  await page.goto(`${base}/app/agents`, { waitUntil: "commit" });
  return await page.evaluate(
    () =>
      new Promise((resolve) => {
        const ready = () => {
          const button = [...document.querySelectorAll("button")].find(
            (element) => element.textContent === "New agent" && !element.disabled,
          );
          const row = [...document.querySelectorAll("table th[scope=row]")].some((cell) =>
            cell.textContent?.includes("Onboarding assistant"),
          );
          if (button && row) resolve(performance.now());
          else requestAnimationFrame(ready);
        };
        ready();
      }),
  );
}

async function main() {
  const { randomBytes } = await import("node:crypto");
  const operatorToken = randomBytes(32).toString("hex");
  const server = await startLocalServer({
    state: "temporary",
    vars: { OPERATOR_TOKEN: operatorToken, SECRETS_KEY: randomBytes(32).toString("base64") },
    logLevel: "warn",
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  });
  try {
    const api = fetchApi(server.base);
    const demo = await seedDemoWorkspace(api, operatorToken);
    const deadline = Date.now() + BUDGET_MS;
    /** A context signed in as the demo owner (its own one-time link). */
    const signedIn = async () => {
      const link = await api("POST", "/v1/manage/sign-in-links", {
        token: demo.memberToken,
        body: {},
      });
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      await page.goto(link.json.url);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(/\/app/);
      return { context, page };
    };
    const first = [];
    // A fresh context signs in on /app, whose shell and bundles are then cached: clear the cache
    // over CDP before the timed open, so each first visit fetches everything.
    for (let i = 0; i < OPENS && Date.now() < deadline; i++) {
      const { context, page } = await signedIn();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.clearBrowserCache");
      first.push(await timeAgents(page, server.base));
      await context.close();
    }
    const again = [];
    const { context, page } = await signedIn();
    await timeAgents(page, server.base);
    for (let i = 0; i < OPENS && Date.now() < deadline; i++) {
      again.push(await timeAgents(page, server.base));
    }
    await context.close();
    const summary = (values) => ({
      opens: values.length,
      medianMs: Math.round(percentile(values, 0.5)),
      p95Ms: Math.round(percentile(values, 0.95)),
    });
    const report = {
      date: new Date().toISOString(),
      what: "/app/agents: navigation start to the agents table shown and New agent enabled",
      targetMs: TARGET_MS,
      firstVisit: summary(first),
      returnVisit: summary(again),
    };
    report.pass = report.firstVisit.medianMs < TARGET_MS && report.returnVisit.medianMs < TARGET_MS;
    fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log("\nDashboard: the Agents screen interactive (ms, median / p95)");
    console.log(
      `  first visit  ${report.firstVisit.medianMs} / ${report.firstVisit.p95Ms} (${report.firstVisit.opens} opens)`,
    );
    console.log(
      `  return visit ${report.returnVisit.medianMs} / ${report.returnVisit.p95Ms} (${report.returnVisit.opens} opens)`,
    );
    console.log(
      `${report.pass ? "PASS" : "FAIL"} (target: median under ${TARGET_MS} ms), written to ${RESULTS_FILE}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench-dashboard failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
