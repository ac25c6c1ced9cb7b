/**
 * What people wait for in a browser, run by `npm run bench` (or alone:
 * `node scripts/bench-browser.mjs`), each timed in the page from the navigation's start:
 * - the chat: a new link's `url` opened until the agent's greeting shows (issue 15: median under
 *   500 ms), BENCH_BROWSER_OPENS (20) links, each in a fresh browser context;
 * - the dashboard: `/app/agents` until the agents are listed and **New agent** can be pressed
 *   (issue 14: under 1 s), as many times with an empty cache (a first visit) and in one context
 *   with a warm one (a return visit).
 * Starts the service as `npm run dev` does (scripts/local-server.mjs: temporary state,
 * 127.0.0.1), seeds the demo workspace and drives Debian's Chromium (CHROMIUM_PATH). Bounded: at
 * most 60 s of opening per measure. Prints medians and 95th percentiles, writes
 * bench-results/browser.json; exit code 0 once measured (targets are reported, not enforced), 1
 * when the server or the browser failed.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { seedDemoWorkspace } from "./demo-seed.mjs";
import { fetchApi, ROOT, startLocalServer } from "./local-server.mjs";

const OPENS = Math.min(100, Math.max(1, Number(process.env.BENCH_BROWSER_OPENS) || 20));
const BUDGET_MS = 60_000;
const TARGETS_MS = { chatGreeting: 500, dashboardAgents: 1_000 };
const RESULTS_FILE = path.join(ROOT, "bench-results", "browser.json");

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

/** Opens a new link's chat page in `page`: ms from the navigation's start to the greeting shown. */
async function timeGreeting(page, url) {
  await page.goto(url, { waitUntil: "commit" });
  return await page.evaluate(
    () =>
      new Promise((resolve) => {
        const shown = () => {
          if (document.querySelector("#messages .message.agent")) resolve(performance.now());
          else requestAnimationFrame(shown);
        };
        shown();
      }),
  );
}

const summary = (values) => ({
  opens: values.length,
  medianMs: Math.round(percentile(values, 0.5)),
  p95Ms: Math.round(percentile(values, 0.95)),
});

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
    const greetings = [];
    let deadline = Date.now() + BUDGET_MS;
    for (let i = 0; i < OPENS && Date.now() < deadline; i++) {
      const link = await api("POST", "/v1/widget/launches", {
        token: demo.widgetKey,
        body: {
          flowId: demo.agentId,
          channelId: demo.channelId,
          parameters: { plan: "Pro" },
          participant: { name: "Ada", externalId: `bench-${i}` },
        },
      });
      if (link.status !== 201) throw new Error(`create answered ${link.status}: ${link.text}`);
      const context = await browser.newContext({ viewport: { width: 400, height: 700 } });
      greetings.push(await timeGreeting(await context.newPage(), link.json.url));
      await context.close();
    }
    deadline = Date.now() + BUDGET_MS;
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
    const firstVisits = [];
    // A fresh context signs in on /app, whose shell and bundles are then cached: clear the cache
    // over CDP before the timed open, so each first visit fetches everything.
    for (let i = 0; i < OPENS && Date.now() < deadline; i++) {
      const { context, page } = await signedIn();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.clearBrowserCache");
      firstVisits.push(await timeAgents(page, server.base));
      await context.close();
    }
    const returnVisits = [];
    const { context, page } = await signedIn();
    await timeAgents(page, server.base);
    for (let i = 0; i < OPENS && Date.now() < deadline; i++) {
      returnVisits.push(await timeAgents(page, server.base));
    }
    await context.close();
    const chat = { ...summary(greetings), targetMs: TARGETS_MS.chatGreeting };
    const first = { ...summary(firstVisits), targetMs: TARGETS_MS.dashboardAgents };
    const again = { ...summary(returnVisits), targetMs: TARGETS_MS.dashboardAgents };
    const rows = [
      ["chat: link opened → greeting shown", chat],
      ["dashboard /app/agents, first visit → interactive", first],
      ["dashboard /app/agents, return visit → interactive", again],
    ];
    const report = {
      date: new Date().toISOString(),
      chatGreeting: chat,
      dashboardAgentsFirstVisit: first,
      dashboardAgentsReturnVisit: again,
      pass: rows.every(([, row]) => row.medianMs < row.targetMs),
    };
    fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log("\nIn the browser (ms from the navigation's start): median / p95, target median");
    for (const [what, row] of rows) {
      const verdict = row.medianMs < row.targetMs ? "pass" : "FAIL";
      console.log(
        `  ${what}: ${row.medianMs} / ${row.p95Ms} (${row.opens} opens), < ${row.targetMs} ${verdict}`,
      );
    }
    console.log(`${report.pass ? "PASS" : "FAIL"}, written to ${RESULTS_FILE}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench-browser failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
