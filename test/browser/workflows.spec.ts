import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  type DemoWorkflow,
  type DemoWorkspace,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { look, need } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

const SECRET = "whsec-demo-7f3a9c2e41";

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let api: Api;
let demo: DemoWorkspace;
let workflow: DemoWorkflow;
const problems: string[] = [];

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  workflow = await seedDemoWorkflow(api, demo.memberToken, SECRET);
  browser = await launchChromium();
  page = await open(browser, server.base);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A new browser context and page that records page errors and failed requests in `problems`. */
async function open(from: Browser, base: string): Promise<Page> {
  const context = await from.newContext({ viewport: { width: 1200, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const opened = await context.newPage();
  opened.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
  opened.on("console", (message) => {
    if (message.type() === "error") problems.push(`[console] ${message.text()}`);
  });
  opened.on("response", (response) => {
    if (response.status() >= 400) problems.push(`[http ${response.status()}] ${response.url()}`);
  });
  return opened;
}

/** Signs `current` in with the one-time link `url`. */
async function signIn(current: Page, url: string): Promise<void> {
  await current.goto(url);
  await current.getByRole("button", { name: "Continue" }).click();
  await current.waitForURL((landed) => landed.pathname.startsWith("/app"));
}

/** Calls the demo webhook as a sender would: `secret` in `x-webhook-secret`. */
async function callWebhook(secret: string, orderId: number): Promise<Response> {
  return await fetch(workflow.webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-secret": secret },
    body: JSON.stringify({ orderId }),
  });
}

const rows = (current: Page, name: string) =>
  current.getByRole("region", { name }).getByRole("row");

describe("the workflow screens", () => {
  let original = "";

  it("lists the workflow with its status and a webhook URL to copy", async () => {
    const right = await callWebhook(SECRET, 1042);
    expect(await right.json()).toMatchObject({ ok: true, orderId: 1042 });
    const wrong = await callWebhook("not-the-secret", 1043);
    expect(await wrong.json()).toMatchObject({ ok: false });

    const current = need(page, "page");
    const link = await api("POST", "/v1/manage/sign-in-links", {
      token: demo.memberToken,
      body: {},
    });
    await signIn(current, link.json.url);
    await current.getByRole("link", { name: "Workflows" }).click();
    await current.getByRole("heading", { name: "Workflows", level: 1 }).waitFor();
    expect(new URL(current.url()).pathname).toBe("/app/workflows");
    const row = current.getByRole("row", { name: /Order events/ });
    await row.getByText("running").waitFor();
    await row.getByText(workflow.webhookUrl).waitFor();
    await row.getByRole("button", { name: "Copy the URL of webhook_1" }).click();
    await row.getByText("Copied.").waitFor();
    expect(await current.evaluate(() => navigator.clipboard.readText())).toBe(workflow.webhookUrl);
    await look(current, "workflows-1-list");
  });

  it("shows the executions newest first and one execution's nodes, the secret redacted", async () => {
    const current = need(page, "page");
    await current.getByRole("link", { name: "Order events" }).click();
    await current.getByRole("heading", { name: "Order events", level: 1 }).waitFor();
    // A workflow's name opens its editor; its executions are the next tab.
    expect(new URL(current.url()).pathname).toBe(`/app/workflows/${workflow.workflowId}/editor`);
    await current.getByRole("link", { name: "Executions" }).click();
    const executions = rows(current, "Executions");
    await expect.poll(() => executions.count()).toBe(3); // the header and two executions
    await expect.poll(() => executions.nth(1).textContent()).toContain("succeeded");
    expect(await executions.nth(1).textContent()).toContain("webhook_1 (webhook)");
    await look(current, "workflows-2-executions");

    // Newest first: the second row is the call with the right secret.
    const older = executions.nth(2).getByRole("link");
    original = (await older.textContent()) ?? "";
    await older.click();
    await current.getByRole("heading", { name: `Execution ${original}` }).waitFor();
    const accepted = current.getByRole("article", { name: "accepted (set)" });
    await accepted.getByText('"message": "Order 1042 received"').waitFor();
    // Its input holds the earlier outputs by key: the call, whose secret header is redacted.
    await accepted.getByText('"x-webhook-secret": "[redacted]"').first().waitFor();
    expect(await current.getByRole("article", { name: "refused (set)" }).count()).toBe(0);
    expect(await current.content()).not.toContain(SECRET);
    await look(current, "workflows-3-execution");
  });

  it("replays the execution and lands on the new one", async () => {
    const current = need(page, "page");
    // By keyboard: Enter opens the dialog, Escape closes it and gives focus back.
    const button = current.getByRole("button", { name: "Replay", exact: true });
    await button.focus();
    await current.keyboard.press("Enter");
    const dialog = current.getByRole("dialog", { name: "Replay this execution?" });
    await dialog.waitFor();
    await current.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    await current.keyboard.press("Enter");
    await dialog.getByLabel("The workflow as saved now").check();
    await look(current, "workflows-4-replay-dialog");
    await dialog.getByRole("button", { name: "Replay execution" }).click();
    await current.waitForURL((url) => !url.pathname.endsWith(original));
    const replayed = new URL(current.url()).pathname.split("/").at(-1) ?? "";
    expect(replayed).toMatch(/^exe_/);
    await current.getByRole("heading", { name: `Execution ${replayed}` }).waitFor();
    await current.getByRole("link", { name: original }).waitFor(); // "Replay of"
    await current
      .getByRole("article", { name: "accepted (set)" })
      .getByText('"orderId": 1042')
      .first()
      .waitFor();
    await current.getByRole("link", { name: "Order events" }).click();
    await expect.poll(() => rows(current, "Executions").count()).toBe(4);
  });

  it("shows the request log and one call's headers and body", async () => {
    const current = need(page, "page");
    await current.getByRole("link", { name: "Request log" }).click();
    expect(new URL(current.url()).pathname).toBe(`/app/workflows/${workflow.workflowId}/requests`);
    const calls = rows(current, "Request log");
    await expect.poll(() => calls.count()).toBe(3); // a replay is no call: only the two
    expect(await calls.nth(1).textContent()).toMatch(/Accepted200POSTwebhook_1/);
    await look(current, "workflows-5-request-log");
    await calls
      .nth(2)
      .getByRole("button", { name: /View call/ })
      .click();
    const dialog = current.getByRole("dialog", { name: "Logged call" });
    await dialog.getByRole("row", { name: "x-webhook-secret [redacted]" }).waitFor();
    await dialog.getByText('"orderId": 1042').waitFor();
    await look(current, "workflows-6-logged-call");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("stops the workflow, whose refused calls are logged, and starts it again", async () => {
    const current = need(page, "page");
    await current.getByRole("link", { name: "Workflows" }).first().click();
    const row = current.getByRole("row", { name: /Order events/ });
    await row.getByRole("button", { name: "Stop Order events" }).click();
    await row.getByText("Order events is stopped: its webhook URLs answer 404.").waitFor();
    await row.getByText("stopped", { exact: true }).waitFor();
    expect((await callWebhook(SECRET, 1044)).status).toBe(404);

    await row.getByRole("link", { name: "Order events" }).click();
    await current.getByRole("link", { name: "Request log" }).click();
    await current.getByLabel("Outcome").selectOption("stopped");
    const calls = rows(current, "Request log");
    await expect.poll(() => calls.count()).toBe(2);
    expect(await calls.nth(1).textContent()).toMatch(/Workflow stopped404POST/);
    await look(current, "workflows-7-refusal");

    await current.getByRole("button", { name: "Start Order events" }).click();
    await current.getByText("Order events is running: its webhook URLs accept calls.").waitFor();
    expect((await callWebhook(SECRET, 1045)).status).toBe(200);
  });

  it("pages through the executions and the request log", async () => {
    const current = need(page, "page");
    for (let order = 2000; order < 2020; order += 1) {
      expect((await callWebhook(SECRET, order)).status).toBe(200);
    }
    await current.getByLabel("Outcome").selectOption("");
    await current.getByRole("button", { name: "Refresh" }).click();
    const calls = rows(current, "Request log");
    await expect.poll(() => calls.count()).toBe(21); // the newest 20
    await current.getByRole("button", { name: "Load more calls" }).click();
    await expect.poll(() => calls.count()).toBe(25); // 2 + 1 refused + 1 + 20
    expect(await current.getByRole("button", { name: "Load more calls" }).count()).toBe(0);

    await current.getByRole("link", { name: "Executions", exact: true }).click();
    const executions = rows(current, "Executions");
    await current.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => executions.count()).toBe(21);
    await current.getByRole("button", { name: "Load more executions" }).click();
    await expect.poll(() => executions.count()).toBe(25); // 2 + 1 replay + 1 + 20
    await expect.poll(() => executions.nth(24).textContent()).toContain(original);
  });

  it("reads well in dark mode and at 375 px", async () => {
    const current = need(page, "page");
    await current.emulateMedia({ colorScheme: "dark" });
    await current.setViewportSize({ width: 375, height: 800 });
    await current.goto(
      `${need(server, "server").base}/app/workflows/${workflow.workflowId}/executions/${original}`,
    );
    await current.getByRole("heading", { name: `Execution ${original}` }).waitFor();
    await current.getByRole("article", { name: "accepted (set)" }).waitFor();
    const wide = await current.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(375);
    await look(current, "workflows-8-execution-dark-375");
    await current.goto(`${need(server, "server").base}/app/workflows`);
    await current.getByRole("row", { name: /Order events/ }).waitFor();
    await look(current, "workflows-9-list-dark-375");
  });

  it("shows a member the same screens without Start, Stop or Replay", async () => {
    const invited = await api("POST", "/v1/manage/members", {
      token: demo.memberToken,
      body: { email: "reader@demo.example", name: "Reader", role: "member" },
    });
    expect(invited.status).toBe(201);
    const current = await open(need(browser, "browser"), need(server, "server").base);
    await signIn(current, invited.json.signInUrl);
    await current.goto(`${need(server, "server").base}/app/workflows`);
    const row = current.getByRole("row", { name: /Order events/ });
    await row.getByText("running").waitFor();
    expect(await current.getByRole("button", { name: /^(Start|Stop) / }).count()).toBe(0);
    await row.getByRole("link", { name: "Order events" }).click();
    await current.getByRole("link", { name: "Executions" }).click();
    await rows(current, "Executions").nth(1).getByRole("link").first().click();
    await current.getByRole("article", { name: "accepted (set)" }).waitFor();
    expect(await current.getByRole("button", { name: "Replay" }).count()).toBe(0);
    await look(current, "workflows-10-member-execution");
    expect(problems).toEqual([]);
  });
});
