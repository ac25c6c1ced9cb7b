/**
 * The dashboard's Links screen in a real browser (docs/dashboard.md#screens), under `wrangler dev`
 * and Debian's Chromium: links created with the demo widget key are listed and paged, found by the
 * person's external id; a person chats on one link's page and the owner reads the transcript, ends
 * the conversation (the chat learns it) and revokes another link, each after a confirm dialog; a
 * member sees the same pages without those controls; the page works at 375 px and in dark mode.
 * The agent analyses its conversations: the ended one's page shows its summary and fields.
 * axe-core finds nothing serious or critical on any screen or dialog. Screenshots go to
 * test-results/browser/links-*.png.
 */
import fs from "node:fs";
import path from "node:path";
import axe from "axe-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { transcript } from "./dashboard-page";
import { chatOnLink } from "./person-chat";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");
const QUESTION = "Can I add two more seats?";
/** A person's message whose quote in the agent's reply is Markdown with HTML in it. */
const MARKDOWN = "Please **confirm** this:\n\n- two seats\n- <script>window.hacked = 1</script>";
/** More links than one page of the list (20) holds. */
const FILLER_LINKS = 20;

type Created = { id: string; url: string };

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let api: Api;
let demo: DemoWorkspace;
let ada: Created | undefined;
let bob: Created | undefined;
const problems: string[] = [];

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (an earlier step failed)`);
  return value;
}

/**
 * A page of its own context, whose page errors are problems; on a dashboard page, console errors
 * and failed calls too (the chat page's own test, chat.spec.ts, watches the chat).
 */
async function watchedPage(width = 1200, dashboard = true): Promise<Page> {
  const context = await need(browser, "browser").newContext({ viewport: { width, height: 800 } });
  context.setDefaultTimeout(30_000);
  const opened = await context.newPage();
  opened.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
  if (!dashboard) return opened;
  opened.on("console", (message) => {
    if (message.type() === "error") problems.push(`[console] ${message.text()}`);
  });
  opened.on("response", (response) => {
    if (response.status() >= 400) problems.push(`[http ${response.status()}] ${response.url()}`);
  });
  return opened;
}

/** A link for `name`, created the way a customer's server does, with the demo widget key. */
async function createLink(name: string, externalId: string): Promise<Created> {
  const created = await api("POST", "/v1/widget/launches", {
    token: demo.widgetKey,
    body: {
      flowId: demo.agentId,
      channelId: demo.channelId,
      parameters: { plan: "Pro" },
      participant: { name, externalId },
      metadata: { orderId: `order-${externalId}` },
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.json as Created;
}

/** Signs the demo owner in on `current` with a one-time link. */
async function signIn(current: Page): Promise<void> {
  const link = await api("POST", "/v1/manage/sign-in-links", { token: demo.memberToken, body: {} });
  expect(link.status, link.text).toBe(201);
  await current.goto(link.json.url);
  await current.getByRole("button", { name: "Continue" }).click();
  await current.waitForURL(/\/app/);
}

async function shot(current: Page, name: string): Promise<void> {
  await current.screenshot({ path: path.join(SCREENSHOTS, `links-${name}.png`), fullPage: true });
}

/** axe-core in the page (evaluated over CDP, which the page's CSP does not govern). */
async function seriousFindings(current: Page): Promise<string[]> {
  await current.evaluate(axe.source);
  return current.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  // Ended conversations are analysed (docs/api/manage.md#analysis): the scripted brain's stand-in.
  const analysed = await api("PATCH", `/v1/manage/agents/${demo.agentId}`, {
    token: demo.memberToken,
    body: {
      analysis: {
        summary: true,
        fields: [{ name: "seats", type: "integer", description: "Seats asked for" }],
      },
    },
  });
  expect(analysed.status, analysed.text).toBe(200);
  ada = await createLink("Ada", "cus_ada");
  bob = await createLink("Bob", "cus_bob");
  for (let i = 1; i <= FILLER_LINKS; i++) await createLink(`Person ${i}`, `cus_${i}`);
  // The dashboard's own preview link, the newest: left out of Links unless asked for.
  const preview = await api(
    "POST",
    `/v1/manage/agents/${demo.agentId}/channels/${demo.channelId}/preview-link`,
    { token: demo.memberToken, body: { parameters: { plan: "Pro" } } },
  );
  expect(preview.status, preview.text).toBe(201);
  browser = await launchChromium();
  page = await watchedPage();
  await signIn(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the Links screen", () => {
  it("lists the workspace's links a page at a time", async () => {
    const current = need(page, "page");
    await current.getByRole("link", { name: "Links" }).click();
    await current.getByRole("heading", { name: "Links", level: 1 }).waitFor();
    expect(new URL(current.url()).pathname).toBe("/app/links");
    await current.getByText("Showing the newest 20 links; more can be loaded.").waitFor();
    const rows = current.locator(".link-rows tr");
    expect(await rows.count()).toBe(20);
    expect(await seriousFindings(current)).toEqual([]);
    await current.getByRole("button", { name: "Load more" }).click();
    await current.getByText(`Showing ${FILLER_LINKS + 2} links.`).waitFor();
    expect(await rows.count()).toBe(FILLER_LINKS + 2);
    // Keyboard focus went on to the first link of the new page.
    expect(await current.evaluate(() => document.activeElement?.textContent)).toBe("Bob");
    expect(await current.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await shot(current, "1-list");

    // The preview link made in the dashboard shows only when asked for, at once.
    const previews = current.getByLabel("Show preview links");
    expect(await previews.isChecked()).toBe(false);
    await previews.check();
    await current.waitForURL(/\?previews=shown$/);
    await rows
      .first()
      .getByText(/^dashboard-preview:mem_/)
      .waitFor();
    expect(await current.getByLabel("Show preview links").isChecked()).toBe(true);
    await shot(current, "1b-previews");
    await current.getByLabel("Show preview links").uncheck();
    await current.waitForURL((url) => url.search === "");
    // The list as it was, both pages loaded, without the preview link.
    await current.getByText(`Showing ${FILLER_LINKS + 2} links.`).waitFor();
    expect(
      await current
        .locator(".link-rows")
        .getByText(/^dashboard-preview:/)
        .count(),
    ).toBe(0);
  });

  it("finds a link by the person's external id, and by status and agent", async () => {
    const current = need(page, "page");
    const search = current.getByRole("search", { name: "Search links" });
    await search.getByLabel("Person's external id").fill("cus_ada");
    await search.getByRole("button", { name: "Search" }).click();
    await current.getByText("Showing 1 link.").waitFor();
    expect(new URL(current.url()).search).toBe("?externalId=cus_ada");
    const row = current.getByRole("row", { name: /Ada/ });
    expect(await row.getByRole("cell").allTextContents()).toEqual([
      "Onboarding assistant",
      "Pending",
      expect.any(String),
      expect.any(String),
    ]);
    expect(await seriousFindings(current)).toEqual([]);
    await shot(current, "2-search");

    await search.getByLabel("Person's external id").fill("");
    await search.getByLabel("Status").selectOption("revoked");
    await search.getByLabel("Agent").selectOption({ label: "Onboarding assistant" });
    await search.getByRole("button", { name: "Search" }).click();
    await current.getByText("No links match this search.").waitFor();
    await current.goBack();
    await current.getByText("Showing 1 link.").waitFor();
    expect(await search.getByLabel("Person's external id").inputValue()).toBe("cus_ada");
  });

  it("shows a link's page with the conversation the person had", async () => {
    const current = need(page, "page");
    const link = need(ada, "Ada's link");
    const chat = await watchedPage(800, false);
    await chatOnLink(chat, link.url, QUESTION);
    // The scripted brain quotes this back: the agent's reply holds bold, a list and a script tag.
    await chat.locator("#message-input").fill(MARKDOWN);
    await chat.locator("#message-input").press("Enter");
    await chat
      .locator("#messages li.message.agent:not(.draft)", { hasText: "two seats" })
      .waitFor();

    await current.getByRole("link", { name: "Ada" }).click();
    await current.getByRole("heading", { name: "Link for Ada", level: 1 }).waitFor();
    expect(new URL(current.url()).pathname).toBe(`/app/links/${link.id}`);
    expect(await current.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await current.locator(".transcript > li").nth(4).waitFor();
    const said = await transcript(current);
    expect(said.slice(0, 2)).toEqual([
      ["Onboarding assistant", "Hi Ada! Let's set up your Pro plan."],
      ["Ada", QUESTION],
    ]);
    expect(said[2]?.[0]).toBe("Onboarding assistant");
    // The agent's Markdown is rendered as the chat renders it; the person's words stay as typed.
    const reply = current.locator(".transcript > li.from-agent").last();
    await reply.locator(".said strong", { hasText: "confirm" }).waitFor();
    await reply.locator(".said li", { hasText: "two seats" }).waitFor();
    await reply.locator(".said li", { hasText: "<script>window.hacked = 1</script>" }).waitFor();
    expect(await current.locator(".transcript script").count()).toBe(0);
    expect(await current.evaluate(() => "hacked" in window)).toBe(false);
    expect(said[3]).toEqual(["Ada", MARKDOWN]);
    const facts = current.locator(".link-fact-list");
    await facts.getByText("cus_ada", { exact: true }).waitFor();
    await facts.getByText("order-cus_ada").waitFor();
    await current.locator(".link-status").getByText("Active").waitFor();
    expect(await seriousFindings(current)).toEqual([]);
    await shot(current, "3-link");

    // The end: after confirming, the person's chat closes and the link shows ended.
    await current.getByRole("button", { name: "End conversation" }).click();
    const confirm = current.getByRole("dialog", { name: "End this conversation?" });
    await confirm.waitFor();
    expect(await seriousFindings(current)).toEqual([]);
    await shot(current, "4-end-confirm");
    await confirm.getByRole("button", { name: "End conversation" }).click();
    await current.getByRole("status").getByText("The conversation was ended.").waitFor();
    await current.locator(".link-status").getByText("Ended").waitFor();
    await chat.waitForFunction(() => document.documentElement.dataset.state === "ended");
    expect(await current.getByRole("button", { name: "End conversation" }).count()).toBe(0);
    const looked = await api("GET", `/v1/widget/launches/${link.id}`, { token: demo.widgetKey });
    expect(looked.json.status).toBe("ended");
    // The analysis comes after the end; the page reads the link again until it is there.
    const analysis = current.getByRole("region", { name: "Analysis" });
    await analysis.getByText(/messages with Onboarding assistant/).waitFor();
    const seats = analysis.getByRole("row", { name: /seats/ });
    expect(await seats.getByRole("cell").allTextContents()).toEqual(["Unknown"]);
    expect(await seriousFindings(current)).toEqual([]);
    await shot(current, "5-ended");
    await chat.context().close();
  });

  it("revokes another link after confirming", async () => {
    const current = need(page, "page");
    const link = need(bob, "Bob's link");
    // The way back is the search last shown.
    await current.locator(".breadcrumb").getByRole("link", { name: "Links" }).click();
    await current.getByText("Showing 1 link.").waitFor();
    const search = current.getByRole("search", { name: "Search links" });
    await search.getByLabel("Person's external id").fill("cus_bob");
    await search.getByRole("button", { name: "Search" }).click();
    await current.getByRole("link", { name: "Bob" }).click();
    await current.getByRole("heading", { name: "Link for Bob" }).waitFor();
    await current.getByText("Nobody has opened this link yet").waitFor();
    // Nobody opened it: there is no conversation to end.
    expect(await current.getByRole("button", { name: "End conversation" }).count()).toBe(0);
    await current.getByRole("button", { name: "Revoke link" }).click();
    const confirm = current.getByRole("dialog", { name: "Revoke this link?" });
    // Cancel has the focus, not the button that cannot be undone: a stray Enter keeps the link.
    const cancel = confirm.getByRole("button", { name: "Cancel" });
    expect(await cancel.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await seriousFindings(current)).toEqual([]);
    await shot(current, "6-revoke-confirm");
    await confirm.getByRole("button", { name: "Revoke link" }).click();
    await current.getByRole("status").getByText("The link was revoked.").waitFor();
    await current.locator(".link-status").getByText("Revoked").waitFor();
    expect(await current.getByRole("button", { name: "Revoke link" }).count()).toBe(0);
    const looked = await api("GET", `/v1/widget/launches/${link.id}`, { token: demo.widgetKey });
    expect(looked.json.status).toBe("revoked");
    expect(problems).toEqual([]);
  });

  it("shows a member the same pages without the controls, at 375 px and in dark mode", async () => {
    const invited = await api("POST", "/v1/manage/members", {
      token: demo.memberToken,
      body: { email: "mo@demo.example", name: "Mo Member", role: "member" },
    });
    expect(invited.status, invited.text).toBe(201);
    const narrow = await watchedPage(375);
    await narrow.emulateMedia({ colorScheme: "dark" });
    await narrow.goto(invited.json.signInUrl);
    await narrow.getByRole("button", { name: "Continue" }).click();
    await narrow.waitForURL(/\/app/);
    await narrow.goto(`${need(server, "server").base}/app/links/${need(ada, "Ada's link").id}`);
    await narrow.getByRole("heading", { name: "Link for Ada" }).waitFor();
    await narrow.locator(".transcript > li").nth(1).waitFor();
    expect(await narrow.getByRole("button").allTextContents()).toEqual(["Sign out"]);
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, "horizontal scrolling at 375 px").toBe(0);
    expect(await seriousFindings(narrow)).toEqual([]);
    await shot(narrow, "7-member-narrow-dark");
    await narrow.getByRole("link", { name: "Links" }).first().click();
    await narrow.getByText(/Showing the newest 20 links/).waitFor();
    expect(await seriousFindings(narrow)).toEqual([]);
    await shot(narrow, "8-member-list-narrow-dark");
    expect(problems).toEqual([]);
  });
});
