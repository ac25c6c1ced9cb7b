/**
 * The live widget preview on the Agents screen (docs/dashboard.md#widget-preview) in a real
 * browser, under `wrangler dev` and Debian's Chromium. The demo owner opens the demo agent's
 * channels, gives its required parameter, and sees the real widget's launcher on the stand-in
 * page; opening it shows the agent's greeting with the owner's name, and the agent answers;
 * Restart conversation starts a new one (the old link revoked). A member (375 px, dark) previews
 * too, greeted by their own name. axe-core finds nothing serious or critical in the dialog or the
 * preview's page. Screenshots go to test-results/browser/preview-*.png.
 */
import axe from "axe-core";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { type DashboardPage, seriousFindings, shot, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

const GREETING = (name: string) => `Hi ${name}! Let's set up your Pro plan.`;

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace;
let owner: DashboardPage | undefined;

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  browser = await launchChromium();
  const link = await api("POST", "/v1/manage/sign-in-links", { token: demo.memberToken, body: {} });
  expect(link.status, link.text).toBe(201);
  owner = await signIn(browser, server.base, link.json.url);
  owner.page.context().setDefaultTimeout(30_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (an earlier step failed)`);
  return value;
}

/** axe-core's serious and critical findings on the page and in the preview's stand-in page. */
async function findings(page: Page): Promise<string[]> {
  const found = await seriousFindings(page);
  const frame = page.frames().find((candidate) => candidate.url().includes("/app/preview/"));
  if (!frame) return [...found, "no preview frame"];
  await frame.evaluate(axe.source);
  const inFrame = await frame.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `[preview] ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  return [...found, ...inFrame];
}

/**
 * Opens the Agents screen's channels of the demo agent and its channel's preview, giving the
 * parameters' values; `name` is the screenshot of the values form, checked with axe-core.
 */
async function openPreview(page: Page, name: string) {
  await page.getByRole("link", { name: "Agents" }).click();
  await page.getByRole("button", { name: "Channels of Onboarding assistant" }).click();
  const dialog = page.getByRole("dialog", { name: "Channels of Onboarding assistant" });
  await dialog.getByRole("button", { name: "Preview the widget of Website widget" }).click();
  const region = dialog.getByRole("region", { name: "Preview of Website widget" });
  await region.getByLabel("plan (required)").fill("Pro");
  await region.getByLabel("tier").selectOption("pro");
  await shot(page, name);
  expect(await seriousFindings(page)).toEqual([]);
  await region.getByRole("button", { name: "Show the preview" }).click();
  const preview = page.frameLocator('iframe[title="Widget preview of Website widget"]');
  return { dialog, region, preview };
}

/** Opens the widget in the preview and waits for the agent's greeting in its chat. */
async function openChat(preview: FrameLocator, greeting: string): Promise<FrameLocator> {
  // CSS locators pierce the widget's open shadow root.
  await preview.locator("#agent-edge-launcher").click();
  const chat = preview.frameLocator('iframe[title="Chat"]');
  await chat.getByRole("log", { name: "Conversation" }).getByText(greeting).waitFor();
  return chat;
}

type Listed = { data: { id: string; status: string }[] };

describe("the widget preview", () => {
  it("shows the real widget for the channel: the launcher, then the greeting with the owner's name", async () => {
    const { page, problems } = need(owner, "the owner's page");
    const { dialog, preview } = await openPreview(page, "preview-0-values");
    await preview.locator("#agent-edge-launcher").waitFor();
    await preview.getByRole("heading", { name: "Widget preview" }).waitFor();
    await dialog.getByText("dashboard-preview:mem_").waitFor();
    await shot(page, "preview-1-launcher");
    expect(await findings(page)).toEqual([]);

    const chat = await openChat(preview, GREETING("Demo Owner"));
    await shot(page, "preview-2-greeting");
    await chat.getByLabel("Message", { exact: true }).fill("Can I add two more seats?");
    await chat.getByRole("button", { name: "Send" }).click();
    // The greeting, the question and the agent's answer.
    const log = chat.getByRole("log", { name: "Conversation" });
    await expect.poll(() => log.getByRole("listitem").count(), { timeout: 20_000 }).toBe(3);
    await shot(page, "preview-3-reply");
    expect(await findings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("restarts the conversation on a new link; the old one is revoked", async () => {
    const { page, problems } = need(owner, "the owner's page");
    const me = await api("GET", "/v1/manage/me", { token: demo.memberToken });
    const externalId = `dashboard-preview:${me.json.member.id}`;
    const query = `/v1/manage/links?externalId=${encodeURIComponent(externalId)}`;
    const before = (await api("GET", query, { token: demo.memberToken })).json as Listed;
    expect(before.data.map((link) => link.status)).toEqual(["active"]);

    const dialog = page.getByRole("dialog", { name: "Channels of Onboarding assistant" });
    await dialog.getByRole("button", { name: "Restart conversation" }).click();
    await expect
      .poll(
        async () => ((await api("GET", query, { token: demo.memberToken })).json as Listed).data,
      )
      .toHaveLength(2);
    const after = (await api("GET", query, { token: demo.memberToken })).json as Listed;
    expect(after.data.map((link) => link.status)).toEqual(["pending", "revoked"]);
    const preview = page.frameLocator('iframe[title="Widget preview of Website widget"]');
    await expect
      .poll(() =>
        page.locator('iframe[title="Widget preview of Website widget"]').getAttribute("src"),
      )
      .toBe(`/app/preview/${after.data[0]?.id}`);
    const chat = await openChat(preview, GREETING("Demo Owner"));
    // A new conversation: the greeting alone, not the earlier question.
    await expect.poll(() => chat.getByText("Can I add two more seats?").count()).toBe(0);
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "preview-4-restarted-dark");
    await page.emulateMedia({ colorScheme: "light" });
    expect(problems).toEqual([]);
  });

  it("lets a member preview too, at 375 px in dark mode, greeted by their own name", async () => {
    const invited = await api("POST", "/v1/manage/members", {
      token: demo.memberToken,
      body: { email: "mia@demo.example", name: "Mia Member", role: "member" },
    });
    expect(invited.status, invited.text).toBe(201);
    const mia = await signIn(
      need(browser, "browser"),
      need(server, "server").base,
      invited.json.signInUrl,
      {
        viewport: { width: 375, height: 812 },
        colorScheme: "dark",
      },
    );
    mia.page.context().setDefaultTimeout(30_000);
    const { dialog, preview } = await openPreview(mia.page, "preview-5a-member-values-375-dark");
    // Members see no control to add a channel, but preview like anyone.
    expect(await dialog.getByRole("button", { name: "Add channel" }).count()).toBe(0);
    await preview.locator("#agent-edge-launcher").waitFor();
    await shot(mia.page, "preview-5-member-375-dark");
    expect(await findings(mia.page)).toEqual([]);
    await openChat(preview, GREETING("Mia Member"));
    await shot(mia.page, "preview-6-member-chat-375-dark");
    await mia.page.emulateMedia({ colorScheme: "light" });
    await shot(mia.page, "preview-7-member-chat-375-light");
    expect(mia.problems).toEqual([]);
  });
});
