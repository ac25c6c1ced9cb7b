/**
 * The dashboard in a real browser (docs/dashboard.md), under `wrangler dev` and Debian's
 * Chromium: sign in by link, see the agents, create one with a channel and change the channel's
 * allowed sites, create a widget key and see it once, revoke it; no serious or critical axe-core
 * finding on any screen or dialog. Screenshots go to test-results/browser/dashboard-*.png.
 */
import fs from "node:fs";
import path from "node:path";
import axe from "axe-core";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { addVirtualAuthenticator, onLocalhost } from "./dashboard-page";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let api: Api;
let demo: DemoWorkspace;
const problems: string[] = [];

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: server.base,
  });
  page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`[console] ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400 && !response.url().includes("/widget/launches")) {
      problems.push(`[http ${response.status()}] ${response.url()}`);
    }
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (beforeAll failed)`);
  return value;
}

/** What describes a control (its hint and problems, by `aria-describedby`), as one text. */
async function describedBy(control: Locator): Promise<string> {
  const ids = (await control.getAttribute("aria-describedby")) ?? "";
  const said = await control
    .page()
    .evaluate(
      (list) => list.map((id) => document.getElementById(id)?.textContent ?? "").join(" "),
      ids.split(" ").filter(Boolean),
    );
  return said.trim();
}

async function shot(name: string): Promise<void> {
  await need(page, "page").screenshot({ path: path.join(SCREENSHOTS, `dashboard-${name}.png`) });
}

/** axe-core in the page (evaluated over CDP, which the page's CSP does not govern). */
async function seriousFindings(): Promise<string[]> {
  const current = need(page, "page");
  await current.evaluate(axe.source);
  const found = await current.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  return found;
}

describe("the dashboard", () => {
  it("signs in with a one-time link, lands on the overview and opens the agents", async () => {
    const current = need(page, "page");
    const link = await api("POST", "/v1/manage/sign-in-links", {
      token: demo.memberToken,
      body: {},
    });
    expect(link.status).toBe(201);
    // Without a session, /app sends the browser to sign in.
    await current.goto(`${need(server, "server").base}/app`);
    expect(new URL(current.url()).pathname).toBe("/sign-in");
    await current.goto(link.json.url);
    // The page posts the token from the fragment, which then leaves the address bar.
    const proceed = current.getByRole("button", { name: "Continue" });
    await proceed.waitFor();
    expect(new URL(current.url()).pathname).toBe("/sign-in/continue");
    expect(current.url()).not.toContain("si_");
    await shot("1-continue");
    await proceed.click();
    await current.waitForURL(/\/app/);
    await current.getByRole("heading", { name: "Overview" }).waitFor();
    await current.getByRole("link", { name: "Agents" }).click();
    await current.getByRole("heading", { name: "Agents" }).waitFor();
    await current.getByRole("rowheader", { name: "Onboarding assistant" }).waitFor();
    await shot("2-agents");
    expect(await seriousFindings()).toEqual([]);
  });

  it("creates an agent with Initial Parameters, previews its greeting, adds a channel", async () => {
    const current = need(page, "page");
    await current.getByRole("button", { name: "New agent" }).click();
    const dialog = current.getByRole("dialog", { name: "New agent" });
    // Sent empty: the API's own schema refuses it in the browser, in plain words under the field,
    // which is marked invalid and takes focus.
    await dialog.getByRole("button", { name: "Create agent" }).click();
    const name = dialog.getByLabel("Name", { exact: true });
    await expect.poll(() => describedBy(name)).toContain("Enter a name.");
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => name.evaluate((node) => node === document.activeElement)).toBe(true);
    await name.fill("Billing helper");
    await dialog.getByLabel("Greeting").fill("Hello {{participant.name}}, about your invoice?");
    await dialog.getByText("Preview for Ada: Hello Ada, about your invoice?").waitFor();
    await dialog.getByRole("button", { name: "Add a parameter" }).click();
    await dialog.getByRole("group", { name: "Parameter 1" }).getByLabel("Name").fill("invoiceId");
    await dialog.getByRole("button", { name: "Add a parameter" }).click();
    const second = dialog.getByRole("group", { name: "Parameter 2" });
    await second.getByLabel("Name").fill("bad name!");
    await dialog.getByRole("button", { name: "Create agent" }).click();
    // Numbered as the person sees it, under that parameter's Name (never "parameters.1.name").
    await expect.poll(() => describedBy(second.getByLabel("Name"))).toMatch(/^Parameter 2: /);
    expect(await dialog.textContent()).not.toMatch(/parameters\.\d|Too small|expected/);
    await expect
      .poll(() => second.getByLabel("Name").evaluate((node) => node === document.activeElement))
      .toBe(true);
    await dialog.getByRole("button", { name: "Remove parameter bad name!" }).click();
    await dialog.getByLabel("Required").check();
    // Analysis (docs/api/manage.md#analysis): a field without a description is refused in the
    // browser, numbered as the section shows it.
    await dialog.getByLabel("Analyse each conversation once it ended").check();
    await dialog.getByRole("button", { name: "Add a field" }).click();
    const field = dialog.getByRole("group", { name: "Field 1" });
    await field.getByLabel("Name").fill("invoice_total");
    await field.getByLabel("Type").selectOption("number");
    await dialog.getByRole("button", { name: "Create agent" }).click();
    await expect.poll(() => describedBy(field.getByLabel("Description"))).toMatch(/^Field 1: /);
    await field.getByLabel("Description").fill("The invoice's total");
    await shot("2a-new-agent");
    expect(await seriousFindings()).toEqual([]);
    await dialog.getByRole("button", { name: "Create agent" }).click();
    const row = current.getByRole("row", { name: /Billing helper/ });
    await row.getByRole("cell", { name: "invoiceId" }).waitFor();
    const created = await api("GET", "/v1/manage/agents", { token: demo.memberToken });
    const agent = created.json.data.find((a: { name: string }) => a.name === "Billing helper");
    expect(agent.parameters).toEqual([
      expect.objectContaining({ name: "invoiceId", type: "string", required: true }),
    ]);
    expect(agent.analysis).toEqual({
      summary: true,
      fields: [{ name: "invoice_total", type: "number", description: "The invoice's total" }],
    });
    await row.getByRole("button", { name: "Channels of Billing helper" }).click();
    const channels = current.getByRole("dialog", { name: "Channels of Billing helper" });
    await channels.getByLabel("New widget channel").fill("Website");
    await channels.getByRole("button", { name: "Add channel" }).click();
    await channels.getByRole("heading", { name: "Website" }).waitFor();
    await channels.getByRole("button", { name: "Copy snippet of Website" }).click();
    expect(await current.evaluate(() => navigator.clipboard.readText())).toContain(agent.id);
    await shot("2b-channel-snippet");
    expect(await seriousFindings()).toEqual([]);

    // Its allowed sites: any until changed; one origin a line, checked in the browser first.
    await channels.getByText("Any site may embed this chat.").waitFor();
    await channels.getByRole("button", { name: "Change allowed sites of Website" }).click();
    const sites = channels.getByLabel("Allowed sites of Website");
    await expect.poll(() => sites.evaluate((node) => node === document.activeElement)).toBe(true);
    await sites.fill("https://Shop.example.com/\nshop.example.com/cart");
    await channels.getByRole("button", { name: "Save allowed sites" }).click();
    await channels
      .getByRole("alert")
      .getByText(/^shop\.example\.com\/cart: An origin/)
      .waitFor();
    await shot("2c-channel-sites-refused");
    expect(await seriousFindings()).toEqual([]);
    await sites.fill("https://Shop.example.com/\nhttps://*.example.org");
    await channels.getByRole("button", { name: "Save allowed sites" }).click();
    await channels.getByRole("listitem").filter({ hasText: "https://*.example.org" }).waitFor();
    expect(await channels.getByRole("listitem").allTextContents()).toEqual([
      "https://shop.example.com",
      "https://*.example.org",
    ]);
    const saved = await api("GET", `/v1/manage/agents/${agent.id}/channels`, {
      token: demo.memberToken,
    });
    expect(saved.json.data[0].allowedOrigins).toEqual([
      "https://shop.example.com",
      "https://*.example.org",
    ]);
    await expect
      .poll(() =>
        channels
          .getByRole("button", { name: "Change allowed sites of Website" })
          .evaluate((node) => node === document.activeElement),
      )
      .toBe(true);
    await shot("2d-channel-sites");
    expect(await seriousFindings()).toEqual([]);
    await channels.getByRole("button", { name: "Close" }).click();
  });

  it("creates a widget key, shows it once, and revokes it after confirming", async () => {
    const current = need(page, "page");
    await current.getByRole("link", { name: "Widget keys" }).click();
    await current.getByRole("heading", { name: "Widget keys" }).waitFor();
    expect(new URL(current.url()).pathname).toBe("/app/settings/api-access/widget-keys");
    await current.getByRole("button", { name: "Create widget key" }).click();
    const dialog = current.getByRole("dialog", { name: "Create a widget key" });
    // The browser's own check (a required name) is said under the field, not in its bubble.
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => describedBy(dialog.getByLabel("Name"))).toBe("Enter a name.");
    await expect
      .poll(() => dialog.getByLabel("Name").evaluate((node) => node === document.activeElement))
      .toBe(true);
    await dialog.getByLabel("Name").fill("Billing server");
    await dialog.getByLabel("Onboarding assistant").check();
    await shot("3-create-key");
    expect(await seriousFindings()).toEqual([]);
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = current.getByRole("dialog", { name: "Copy your widget key now" });
    await shown.getByText("This is the only time the key is shown").waitFor();
    // Focus moves to the key, shown once in a named region, and the warning is announced.
    const field = shown.getByLabel(/Widget key/);
    await expect.poll(() => field.evaluate((node) => node === document.activeElement)).toBe(true);
    await shown.getByRole("region", { name: "Your new widget key, shown once" }).waitFor();
    expect(await shown.getByRole("alert").textContent()).toContain(
      "This is the only time the key is shown",
    );
    expect(await field.getAttribute("aria-describedby")).toContain(
      await shown.getByRole("alert").getAttribute("id"),
    );
    const key = await field.inputValue();
    expect(key).toMatch(/^wk_live_/);
    await shown.getByRole("button", { name: "Copy key" }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    expect(await current.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot("4-key-shown-once");
    expect(await seriousFindings()).toEqual([]);
    await shown.getByRole("button", { name: "Done" }).click();

    // The key works for the agent it is limited to, and is never shown again.
    const row = current.getByRole("row", { name: /Billing server/ });
    await row.waitFor();
    expect(await current.content()).not.toContain(key);
    const launched = await api("POST", "/v1/widget/launches", {
      token: key,
      body: {
        flowId: demo.agentId,
        channelId: demo.channelId,
        parameters: { plan: "pro" },
        participant: { name: "Ada", externalId: "cus_1" },
      },
    });
    expect(launched.status).toBe(201);

    await row.getByRole("button", { name: "Revoke Billing server" }).click();
    const confirm = current.getByRole("dialog", { name: "Revoke this widget key?" });
    await shot("5-revoke-confirm");
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await row.waitFor({ state: "detached" });
    const refused = await api("GET", `/v1/widget/launches/${launched.json.id}`, { token: key });
    expect(refused.status).toBe(401);
    await shot("6-revoked");
    expect(problems).toEqual([]);
  });

  it("fits its dialogs in 390 px and says when a table's columns are cut off", async () => {
    const current = need(page, "page");
    await current.setViewportSize({ width: 390, height: 844 });
    /** How far the page, and the open dialog, are wider than they show (0: not at all). */
    const overflow = () =>
      current.evaluate(() => {
        const dialog = document.querySelector("dialog[open]");
        const page = document.documentElement;
        return {
          page: page.scrollWidth - page.clientWidth,
          dialog: dialog ? dialog.scrollWidth - dialog.clientWidth : 0,
          right: dialog ? Math.max(0, dialog.getBoundingClientRect().right - page.clientWidth) : 0,
        };
      });
    const fits = { page: 0, dialog: 0, right: 0 };
    try {
      await current.getByRole("link", { name: "Agents" }).click();
      await current.getByRole("heading", { name: "Agents" }).waitFor();
      expect(await overflow(), "the agents screen").toEqual(fits);
      await current.getByRole("button", { name: "New agent" }).click();
      const agent = current.getByRole("dialog", { name: "New agent" });
      await agent.getByRole("button", { name: "Add a parameter" }).click();
      await agent.getByRole("button", { name: /^Remove parameter/ }).waitFor();
      // A long address in the greeting's preview wraps rather than widening the dialog.
      await agent
        .getByLabel("Greeting")
        .fill(
          "See https://help.example.com/billing/invoices/where-is-my-invoice-and-how-to-pay-it",
        );
      await agent.getByText(/^Preview for Ada: See https/).waitFor();
      expect(await overflow(), "New agent").toEqual(fits);
      await shot("7-phone-new-agent");
      await agent.getByRole("button", { name: "Cancel" }).click();
      const row = current.getByRole("row", { name: /Billing helper/ });
      await row.getByRole("button", { name: "Channels of Billing helper" }).click();
      const channels = current.getByRole("dialog", { name: "Channels of Billing helper" });
      await channels.getByRole("heading", { name: "Website" }).waitFor();
      expect(await overflow(), "Channels").toEqual(fits);
      await channels.getByRole("button", { name: "Close" }).click();

      await current.getByRole("link", { name: "Widget keys" }).click();
      await current.getByRole("heading", { name: "Widget keys" }).waitFor();
      expect(await overflow(), "the widget keys screen").toEqual(fits);
      // Seven columns do not fit: the hint and the shadow say so until scrolled to the end.
      // The table's scrolling region (the screen's own section has the same name).
      const region = current.locator("section.table-wrap[aria-label='Widget keys']");
      const hint = current.getByText("Scroll for more →");
      await hint.waitFor();
      expect(await region.getAttribute("class")).toContain("more-right");
      await shot("8-phone-table-hint");
      await region.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
      await hint.waitFor({ state: "hidden" });
      expect(await region.getAttribute("class")).not.toContain("more-right");
      await current.getByRole("button", { name: "Create widget key" }).click();
      const create = current.getByRole("dialog", { name: "Create a widget key" });
      await create.getByLabel("Name").waitFor();
      expect(await overflow(), "Create a widget key").toEqual(fits);
      await create.getByRole("button", { name: "Cancel" }).click();
      expect(problems).toEqual([]);
    } finally {
      await current.setViewportSize({ width: 1200, height: 800 });
    }
  });

  it("registers a passkey (Chromium's virtual authenticator) and signs in with it", async () => {
    const base = onLocalhost(need(server, "server").base);
    const context = await need(browser, "browser").newContext();
    const current = await context.newPage();
    current.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
    await addVirtualAuthenticator(current);
    const link = await api("POST", "/v1/manage/sign-in-links", {
      token: demo.memberToken,
      body: {},
    });
    await current.goto(String(link.json.url).replace(/^http:\/\/[^/]+/, base));
    await current.getByRole("button", { name: "Continue" }).click();
    await current.getByRole("heading", { name: "Overview" }).waitFor();
    await current.getByRole("link", { name: "Your passkeys" }).click();
    await current.getByLabel("Name").fill("Test laptop");
    await current.getByRole("button", { name: "Add a passkey" }).click();
    await current.getByRole("rowheader", { name: "Test laptop" }).waitFor();
    await current.screenshot({ path: path.join(SCREENSHOTS, "dashboard-7-passkey-added.png") });
    page = current;
    expect(await seriousFindings()).toEqual([]);

    // Signed out, the passkey alone signs in again.
    await current.getByRole("button", { name: "Sign out", exact: true }).click();
    await current.getByText("You are signed out").waitFor();
    await current.goto(`${base}/app`);
    expect(new URL(current.url()).pathname).toBe("/sign-in");
    await current.getByRole("button", { name: "Sign in with a passkey" }).click();
    await current.getByRole("heading", { name: "Overview" }).waitFor();
    await current.screenshot({ path: path.join(SCREENSHOTS, "dashboard-8-passkey-sign-in.png") });
    const listed = await current.evaluate(async () => {
      const answer = await fetch("/v1/manage/passkeys", { credentials: "same-origin" });
      return (await answer.json()) as { data: { name: string; lastUsedAt: string | null }[] };
    });
    expect(listed.data).toEqual([expect.objectContaining({ name: "Test laptop" })]);
    expect(listed.data[0]?.lastUsedAt).not.toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
