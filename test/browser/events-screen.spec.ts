/**
 * The dashboard's Events screens in a real browser (docs/dashboard.md#screens), under `wrangler
 * dev` (http endpoints allowed) and Debian's Chromium: the owner adds a receiver on 127.0.0.1 as
 * an endpoint and sees its signing secret once (it verifies what arrives), sends a test event (the
 * receiver answers 500), finds it in the endpoint's delivery log, resends it (204 this time),
 * disables and enables the endpoint, rotates its secret (shown once) and deletes it; a member sees
 * the same pages at 375 px in dark mode without controls. axe-core finds nothing serious or
 * critical on any view or dialog. Screenshots go to test-results/browser/events-*.png.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { type DashboardPage, seriousFindings, shot, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

type Received = { headers: Record<string, string>; body: string; answered: number };

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let receiver: http.Server | undefined;
let api: Api;
let demo: DemoWorkspace;
let owner: DashboardPage | undefined;
let endpointUrl = "";
let secret = "";
let endpointPath = "";
const received: Received[] = [];

beforeAll(async () => {
  // The first request is answered 500, every later one 204: a failed delivery to resend.
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answered = received.length === 0 ? 500 : 204;
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
        answered,
      });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
  endpointUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  server = await startWranglerServer({ ALLOW_PRIVATE_OUTBOUND: "true" });
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
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

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (an earlier step failed)`);
  return value;
}

/** A screenshot as events-`name`.png and no serious or critical axe-core finding. */
async function check(page: Page, name: string): Promise<void> {
  await shot(page, `events-${name}`);
  expect(await seriousFindings(page)).toEqual([]);
}

describe("the Events screens", () => {
  it("adds an endpoint and shows its signing secret once", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("link", { name: "Events" }).click();
    await page.getByRole("heading", { name: "Events", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings/events");
    await page.getByText("No endpoints yet.").waitFor();
    await check(page, "1-empty");

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an event endpoint" });
    // The API refuses a URL with credentials: its words stand under the URL, which takes focus.
    const url = dialog.getByLabel("URL");
    await url.fill("https://user:pw@example.com/events");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect
      .poll(() => url.evaluate((node) => node === document.activeElement && node.ariaInvalid))
      .toBe("true");
    const ids = (await url.getAttribute("aria-describedby")) ?? "";
    expect(await dialog.locator(`[id="${ids.split(" ").at(-1)}"]`).textContent()).toBe(
      "Credentials are not allowed in the URL; the signature authenticates us.",
    );
    // That refusal is the page's only failed request.
    expect(need(owner, "owner").problems.splice(0)).toEqual([
      `[http 400] ${need(server, "server").base}/v1/manage/event-endpoints`,
      "[console] Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
    await url.fill(endpointUrl);
    await dialog.getByLabel("Description (optional)").fill("Local receiver");
    await dialog.getByRole("checkbox", { name: /link\.created/ }).check();
    await dialog.getByRole("checkbox", { name: /conversation\.ended/ }).check();
    await check(page, "2-add");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();

    const shown = page.getByRole("dialog", { name: "Copy the signing secret now" });
    await shown.getByText("This is the only time the signing secret is shown.").waitFor();
    const field = shown.getByLabel(`Signing secret for ${endpointUrl}`);
    // Focus moves to the secret, in a region named for it; the warning is announced (an alert).
    await expect.poll(() => field.evaluate((node) => node === document.activeElement)).toBe(true);
    await shown.getByRole("region", { name: "Your new signing secret, shown once" }).waitFor();
    await shown
      .getByRole("alert")
      .getByText(/only time the signing secret is shown/)
      .waitFor();
    secret = await field.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await shown.getByRole("button", { name: "Copy secret" }).click();
    await shown.getByRole("status").getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await check(page, "3-secret-once");
    await shown.getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row", { name: new RegExp(endpointUrl) });
    expect(await row.getByRole("cell").allTextContents()).toEqual([
      "link.created, conversation.ended",
      "Enabled",
      "Healthy",
      expect.any(String),
      expect.stringContaining("Send test event"),
    ]);
    expect(await page.content()).not.toContain(secret);
    await check(page, "4-list");
  });

  it("sends a test event, signed with that secret, which the log shows failed", async () => {
    const { page } = need(owner, "owner");
    const row = page.getByRole("row", { name: new RegExp(endpointUrl) });
    await row.getByRole("button", { name: `Send test event to ${endpointUrl}` }).click();
    await row.getByRole("status").getByText("Test event failed (answered 500).").waitFor();
    expect(received).toHaveLength(1);
    const event = new Webhook(secret).verify(
      need(received[0], "the test event").body,
      need(received[0], "the test event").headers,
    ) as { type: string };
    expect(event.type).toBe("event.test");

    await row.getByRole("link", { name: endpointUrl }).click();
    await page.getByRole("heading", { name: "Event endpoint", level: 1 }).waitFor();
    endpointPath = new URL(page.url()).pathname;
    expect(endpointPath).toMatch(/^\/app\/settings\/events\/[^/]+$/);
    await page.getByText("Local receiver").waitFor();
    const delivery = page.locator(".delivery-rows tr").first();
    await delivery.getByRole("rowheader", { name: "event.test" }).waitFor();
    expect(await delivery.getByRole("cell").allTextContents()).toEqual([
      "Failed",
      "1",
      "500",
      expect.any(String),
      expect.stringContaining("Resend"),
    ]);
    await check(page, "5-endpoint-log");
  });

  it("resends the delivery, which succeeds this time", async () => {
    const { page } = need(owner, "owner");
    const delivery = page.locator(".delivery-rows tr").first();
    await delivery.getByRole("button", { name: "Resend event.test" }).click();
    await delivery.getByRole("cell", { name: "Succeeded" }).waitFor();
    expect(await delivery.getByRole("cell").allTextContents()).toEqual([
      "Succeeded",
      "2",
      "204",
      expect.any(String),
      expect.stringContaining("Resend"),
    ]);
    expect(received.map((r) => r.answered)).toEqual([500, 204]);
    expect(received[1]?.headers["webhook-id"]).toBe(received[0]?.headers["webhook-id"]);
    await check(page, "6-resent");
  });

  it("disables and enables the endpoint, and rotates its secret, shown once", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("button", { name: "Disable" }).click();
    await page.locator("dl.facts").getByText("Disabled").waitFor();
    const id = endpointPath.split("/").at(-1);
    const read = await api("GET", `/v1/manage/event-endpoints/${id}`, { token: demo.memberToken });
    expect(read.json.status).toBe("disabled");
    await page.getByRole("button", { name: "Enable" }).click();
    await page.locator("dl.facts").getByText("Enabled").waitFor();

    await page.getByRole("button", { name: "Rotate secret" }).click();
    const ask = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await check(page, "7-rotate-confirm");
    await ask.getByRole("button", { name: "Rotate secret" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the new signing secret now" });
    const rotated = await shown.getByLabel(`Signing secret for ${endpointUrl}`).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await check(page, "8-rotated-once");
    await shown.getByRole("button", { name: "Done" }).click();
    expect(await page.content()).not.toContain(rotated);
  });

  it("shows a member the same pages without controls, at 375 px in dark mode", async () => {
    const invited = await api("POST", "/v1/manage/members", {
      token: demo.memberToken,
      body: { email: "mo@demo.example", name: "Mo Member", role: "member" },
    });
    expect(invited.status, invited.text).toBe(201);
    const member = await signIn(
      need(browser, "browser"),
      need(server, "server").base,
      invited.json.signInUrl,
      { viewport: { width: 375, height: 812 }, colorScheme: "dark" },
    );
    await member.page.getByRole("link", { name: "Events" }).click();
    await member.page.getByRole("row", { name: new RegExp(endpointUrl) }).waitFor();
    expect(await member.page.getByRole("main").getByRole("button").count()).toBe(0);
    await check(member.page, "9-member-list-375-dark");
    await member.page.getByRole("link", { name: endpointUrl }).click();
    await member.page.locator(".delivery-rows tr").first().waitFor();
    expect(await member.page.getByRole("main").getByRole("button").count()).toBe(0);
    const width = await member.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await check(member.page, "10-member-endpoint-375-dark");
    expect(member.problems).toEqual([]);
  });

  it("deletes the endpoint after confirming", async () => {
    const { page, problems } = need(owner, "owner");
    await page.getByRole("button", { name: "Delete" }).click();
    const ask = page.getByRole("dialog", { name: "Delete this event endpoint?" });
    await check(page, "11-delete-confirm");
    await ask.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("No endpoints yet.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings/events");
    const listed = await api("GET", "/v1/manage/event-endpoints", { token: demo.memberToken });
    expect(listed.json.data).toEqual([]);
    expect(problems).toEqual([]);
  });
});
