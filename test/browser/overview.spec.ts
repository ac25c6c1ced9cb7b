/**
 * The Overview and endpoint health in a real browser (docs/dashboard.md#overview), under `wrangler
 * dev` and Debian's Chromium, with data made through the API: links created and opened, webhook
 * calls (accepted, refused, one workflow failing), and an event endpoint whose receiver answers
 * 500 until it is an incident. The owner lands on the Overview; its totals and charts show the
 * numbers in light and dark, on a desktop and at 390×844, each checked with axe-core; the range
 * switches to 30 days by day; the Events screens show the endpoint failing. Screenshots go to
 * test-results/browser/overview-*.png.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  type DemoWorkspace,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { type DashboardPage, look, signIn } from "./dashboard-page";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let receiver: http.Server | undefined;
let api: Api;
let demo: DemoWorkspace;
let owner: DashboardPage | undefined;
let endpointUrl = "";
/** Whether the receiver answers 204 (else 500), and the event ids it was sent. */
let receiverWorks = false;
const sentEvents: string[] = [];

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (an earlier step failed)`);
  return value;
}

/** Creates a link through the launch API; returns its token. */
async function createLink(name: string): Promise<string> {
  const created = await api("POST", "/v1/widget/launches", {
    token: demo.widgetKey,
    body: {
      flowId: demo.agentId,
      channelId: demo.channelId,
      parameters: { plan: "Pro" },
      participant: { name },
    },
  });
  expect(created.status, created.text).toBe(201);
  return new URL(created.json.url).hash.replace("#launch=", "");
}

beforeAll(async () => {
  // Every delivery fails until the receiver works: the endpoint becomes an incident.
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (body.startsWith("{")) sentEvents.push((JSON.parse(body) as { id?: string }).id ?? "");
      if (receiverWorks) response.writeHead(204).end();
      else response.writeHead(500).end("down for maintenance");
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
  endpointUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  server = await startWranglerServer({ ALLOW_PRIVATE_OUTBOUND: "true" });
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  const endpoint = await api("POST", "/v1/manage/event-endpoints", {
    token: demo.memberToken,
    body: { url: endpointUrl, events: ["link.created"], autoRecover: true },
  });
  expect(endpoint.status, endpoint.text).toBe(201);

  // Links: four created, two opened.
  const tokens = await Promise.all(["Ada", "Grace", "Linus", "Edsger"].map(createLink));
  for (const token of tokens.slice(0, 2)) {
    const opened = await api("POST", "/v1/chat/sessions", { body: { token } });
    expect(opened.status, opened.text).toBe(200);
  }
  // Webhooks: accepted calls, a refusal, and a workflow that fails.
  const flow = await seedDemoWorkflow(api, demo.memberToken, "overview-secret-0123456789");
  for (let n = 0; n < 5; n++) {
    await fetch(flow.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-secret": flow.webhookSecret },
      body: JSON.stringify({ orderId: `A-${n}` }),
    });
  }
  expect((await fetch(flow.webhookUrl, { method: "GET" })).status).toBe(405);
  const failing = await api("POST", "/v1/manage/workflows", {
    token: demo.memberToken,
    body: {
      name: "Always fails",
      slug: "always-fails",
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "call", type: "http_request", url: `${endpointUrl}?workflow` },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    },
  });
  expect(failing.status, failing.text).toBe(201);
  await api("POST", `/v1/manage/workflows/${failing.json.id}/start`, { token: demo.memberToken });
  const failed = await fetch(failing.json.webhookUrls.webhook_1, { method: "POST", body: "{}" });
  expect(failed.status).toBe(500);

  browser = await launchChromium();
  const link = await api("POST", "/v1/manage/sign-in-links", { token: demo.memberToken, body: {} });
  owner = await signIn(browser, server.base, link.json.url);
  owner.page.context().setDefaultTimeout(30_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.close();
});

/** Waits until the Overview's totals and every chart are drawn. */
async function overviewReady(page: Page, created: string): Promise<void> {
  await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
  const totals = page.getByRole("definition").filter({ hasText: created }).first();
  await totals.waitFor();
  await page.locator("figure.chart canvas").nth(4).waitFor();
}

describe("the Overview", () => {
  it("is the first screen, with the workspace's numbers as totals and charts", async () => {
    const { page } = need(owner, "owner");
    expect(new URL(page.url()).pathname).toBe("/app/overview");
    // Webhook calls and executions are counted by the runners; a read writes what is pending.
    await overviewReady(page, "4");
    const figures = await page.locator(".totals .total").allInnerTexts();
    expect(figures.join("\n")).toMatch(/Links created\s+4/);
    expect(figures.join("\n")).toMatch(/Links opened\s+2/);
    expect(figures.join("\n")).toMatch(/Executions\s+6\s+1 failed/);
    expect(figures.join("\n")).toMatch(/Webhook calls\s+7/);
    // Each chart tells its numbers in a table for screen readers.
    const table = page.getByRole("table", { name: /Links and conversations/ });
    expect(await table.getByRole("row").count()).toBe(25);
    await look(page, "overview-1-desktop-light");
  });

  it("reads in dark mode", async () => {
    const { page } = need(owner, "owner");
    await page.emulateMedia({ colorScheme: "dark" });
    await overviewReady(page, "4");
    await look(page, "overview-2-desktop-dark");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("switches to the last 30 days by day", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("radio", { name: /Last 30 days/ }).check();
    await page.getByRole("table", { name: /Links and conversations, by day/ }).waitFor({
      state: "attached",
    });
    await overviewReady(page, "4");
    const rows = page.getByRole("table", { name: /Executions, by day/ }).getByRole("row");
    expect(await rows.count()).toBe(31);
    await look(page, "overview-3-30-days");
    await page.getByRole("radio", { name: /Last 24 hours/ }).check();
  });

  it("fits a phone, 390×844, in light and dark", async () => {
    const { page } = need(owner, "owner");
    await page.setViewportSize({ width: 390, height: 844 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await overviewReady(page, "4");
      // The charts follow their boxes' width (a ResizeObserver): nothing wider than the screen.
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(390);
      await look(page, `overview-4-phone-${scheme}`);
      await page.screenshot({
        path: path.join(ROOT, "test-results", "browser", `overview-5-phone-${scheme}-full.png`),
        fullPage: true,
      });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1200, height: 800 });
  });
});

describe("endpoint health", () => {
  it("shows a failing endpoint as an incident on the Events screens", async () => {
    const { page, problems } = need(owner, "owner");
    await page.getByRole("link", { name: "Events" }).click();
    const row = page.getByRole("row", { name: new RegExp(endpointUrl) });
    await row.waitFor();
    // Four link.created deliveries, each failed at its first attempt.
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.innerText();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toMatch(/Failing since .*HTTP 500.*4 deliveries failed since/s);
    await look(page, "overview-6-events-failing");
    await page.getByRole("link", { name: endpointUrl }).click();
    await page.getByText("Auto-recover", { exact: true }).waitFor();
    await page.locator(".delivery-rows tr").first().waitFor();
    expect(await page.getByRole("main").innerText()).toMatch(/Failing since/);
    await look(page, "overview-7-endpoint-failing");
    expect(problems).toEqual([]);
  });

  it("is healthy again after a success, which resends each failed delivery once (autoRecover)", async () => {
    const { page, problems } = need(owner, "owner");
    const tally = () => {
      const counts = new Map<string, number>();
      for (const id of sentEvents) counts.set(id, (counts.get(id) ?? 0) + 1);
      return counts;
    };
    // Each link.created delivery failed at least once (its first retry may have failed too).
    const before = tally();
    const failed = [...before.keys()];
    expect(failed).toHaveLength(4);
    const sentBefore = sentEvents.length;
    receiverWorks = true;
    await page.getByRole("button", { name: /Send test event/ }).click();
    await page.getByText(/Test event delivered/).waitFor();
    await page.locator(".health-note, .badge").getByText("Healthy").waitFor();
    // The four link.created events again, once each (the test event is the fifth id).
    await expect
      .poll(() => sentEvents.length, { timeout: 30_000, interval: 500 })
      .toBeGreaterThanOrEqual(sentBefore + 5);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = tally();
    expect(failed.map((id) => (after.get(id) ?? 0) - (before.get(id) ?? 0))).toEqual([1, 1, 1, 1]);
    await look(page, "overview-8-endpoint-recovered");
    expect(problems).toEqual([]);
  });
});
