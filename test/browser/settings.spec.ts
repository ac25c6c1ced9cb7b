/**
 * Settings > Secrets and Settings > Members in a real browser (docs/dashboard.md#screens), under
 * `wrangler dev` and Debian's Chromium. The owner sets, replaces (the running demo workflow then
 * accepts only the new value) and deletes secrets, values never on the page; invites an Admin
 * whose sign-in link is shown once (never the member token), who signs in elsewhere; makes them a
 * Member, whose screens are then read only (375 px wide, dark); makes a new link and removes them.
 * axe-core finds nothing serious or critical on any screen or dialog. Screenshots go to
 * test-results/browser/settings-*.png.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  type DemoWorkflow,
  type DemoWorkspace,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { SECRET_NAME_PATTERN } from "../../src/dashboard/secret-name";
import { launchChromium } from "./chromium";
import { type DashboardPage, look, signIn } from "./dashboard-page";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const OLD_VALUE = "old-webhook-secret";
const NEW_VALUE = "new-webhook-secret-4f1c";
const STRIPE_VALUE = "sk_test_never_shown_again_91";

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace & DemoWorkflow;
let owner: DashboardPage | undefined;
let pat: DashboardPage | undefined;
let patLink = "";

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  const workspace = await seedDemoWorkspace(api, server.operatorToken);
  demo = { ...workspace, ...(await seedDemoWorkflow(api, workspace.memberToken, OLD_VALUE)) };
  browser = await launchChromium();
  const link = await api("POST", "/v1/manage/sign-in-links", {
    token: demo.memberToken,
    body: {},
  });
  owner = await signIn(browser, server.base, link.json.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (beforeAll failed)`);
  return value;
}

/** What the demo workflow answers a call carrying `secret` (`ok` only for the stored value). */
async function webhookAccepts(secret: string): Promise<boolean> {
  const response = await fetch(demo.webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-secret": secret },
    body: JSON.stringify({ orderId: 7 }),
  });
  return ((await response.json()) as { ok?: boolean }).ok === true;
}

describe("Settings > Secrets", () => {
  it("uses the API's name rule", () => {
    const openapi = JSON.parse(fs.readFileSync(path.join(ROOT, "sdk", "openapi.json"), "utf8"));
    const [parameter] = openapi.paths["/v1/manage/secrets/{name}"].put.parameters;
    expect(parameter.schema.pattern).toBe(`^${SECRET_NAME_PATTERN}$`);
  });

  it("sets a secret, never showing its value again", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("link", { name: "Secrets" }).click();
    await page.getByRole("heading", { name: "Secrets", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings/secrets");
    await page.getByRole("rowheader", { name: "WEBHOOK_SECRET" }).waitFor();
    await look(page, "settings-1-secrets");

    await page.getByRole("button", { name: "Set a secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Set a secret" });
    const name = dialog.getByLabel("Name");
    // An existing name warns that saving replaces it.
    await name.fill("WEBHOOK_SECRET");
    await dialog.getByText("saving replaces its value").waitFor();
    await name.fill("stripe key");
    await dialog.getByLabel("Value").fill(STRIPE_VALUE);
    await dialog.getByRole("button", { name: "Save secret" }).click();
    // The browser refuses the name as the API would, before any request: in words under the
    // field, which is marked invalid and takes focus.
    expect(await name.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(
      true,
    );
    await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    const ids = (await name.getAttribute("aria-describedby")) ?? "";
    expect(await dialog.locator(`[id="${ids.split(" ").at(-1)}"]`).textContent()).toBe(
      "Use upper-case letters, digits and _, starting with a letter; at most 64 characters.",
    );
    await name.fill("STRIPE_API_KEY");
    expect(await dialog.getByLabel("Value").getAttribute("type")).toBe("password");
    await look(page, "settings-2-set-secret");
    await dialog.getByRole("button", { name: "Save secret" }).click();
    await page.getByRole("status").getByText("Secret STRIPE_API_KEY saved.").waitFor();
    await page.getByRole("rowheader", { name: "STRIPE_API_KEY" }).waitFor();
    expect(await page.content()).not.toContain(STRIPE_VALUE);
    const listed = await api("GET", "/v1/manage/secrets", { token: demo.memberToken });
    expect(listed.json.data.map((s: { name: string }) => s.name)).toEqual([
      "STRIPE_API_KEY",
      "WEBHOOK_SECRET",
    ]);
  });

  it("replaces a value with the name fixed; the workflow takes the new one", async () => {
    const { page } = need(owner, "owner");
    expect(await webhookAccepts(OLD_VALUE)).toBe(true);
    await page.getByRole("button", { name: "Replace value of WEBHOOK_SECRET" }).click();
    const dialog = page.getByRole("dialog", { name: "Replace the value of WEBHOOK_SECRET" });
    expect(await dialog.getByLabel("Name").inputValue()).toBe("WEBHOOK_SECRET");
    expect(await dialog.getByLabel("Name").getAttribute("readonly")).not.toBeNull();
    await dialog.getByLabel("Value").fill(NEW_VALUE);
    await look(page, "settings-3-replace-secret");
    await dialog.getByRole("button", { name: "Replace value" }).click();
    await page.getByRole("status").getByText("Secret WEBHOOK_SECRET saved.").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await webhookAccepts(NEW_VALUE)).toBe(true);
    expect(await webhookAccepts(OLD_VALUE)).toBe(false);
    expect(await page.content()).not.toContain(NEW_VALUE);
  });

  it("deletes a secret after confirming", async () => {
    const { page, problems } = need(owner, "owner");
    await page.getByRole("button", { name: "Delete STRIPE_API_KEY" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this secret?" });
    await confirm.getByText("{{secrets.STRIPE_API_KEY}}").waitFor();
    await look(page, "settings-4-delete-secret");
    await confirm.getByRole("button", { name: "Delete STRIPE_API_KEY" }).click();
    await page.getByRole("rowheader", { name: "STRIPE_API_KEY" }).waitFor({ state: "detached" });
    const listed = await api("GET", "/v1/manage/secrets", { token: demo.memberToken });
    expect(listed.json.data.map((s: { name: string }) => s.name)).toEqual(["WEBHOOK_SECRET"]);
    expect(problems).toEqual([]);
  });
});

describe("Settings > Members", () => {
  it("invites an Admin: the sign-in link once with a copy button, never the member token", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("link", { name: "Members" }).click();
    await page.getByRole("heading", { name: "Members", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings/members");
    const me = page.getByRole("row", { name: /Demo Owner \(you\)/ });
    await me.getByText("The owner cannot be changed").waitFor();
    expect(await me.getByRole("button").count()).toBe(0);
    await look(page, "settings-5-members");

    await page.getByRole("button", { name: "Invite a member" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite a member" });
    await dialog.getByLabel("Email").fill("pat@demo.example");
    await dialog.getByLabel("Name").fill("Pat Admin");
    await dialog.getByLabel("Role").selectOption("admin");
    await look(page, "settings-6-invite");
    const answer = page.waitForResponse((r) => r.url().endsWith("/v1/manage/members"));
    await dialog.getByRole("button", { name: "Invite" }).click();
    const memberToken = ((await (await answer).json()) as { memberToken: string }).memberToken;
    expect(memberToken).toMatch(/^mt_/);

    const shown = page.getByRole("dialog", { name: "Hand over the sign-in link" });
    await shown.getByText("within 15 minutes").waitFor();
    // Focus moves to the link, in a region named for it; the warning is announced (an alert).
    const field = shown.getByLabel("Sign-in link for Pat Admin");
    await expect.poll(() => field.evaluate((node) => node === document.activeElement)).toBe(true);
    await shown.getByRole("region", { name: "Your new sign-in link, shown once" }).waitFor();
    await shown
      .getByRole("alert")
      .getByText(/only time the link is shown/)
      .waitFor();
    patLink = await field.inputValue();
    expect(patLink).toMatch(/\/sign-in#token=si_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Copy link" }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(patLink);
    expect(await page.content()).not.toContain(memberToken);
    await look(page, "settings-7-sign-in-link");
    await shown.getByRole("button", { name: "Done" }).click();
    const row = page.getByRole("row", { name: /Pat Admin/ });
    await row.getByRole("cell", { name: "Admin", exact: true }).waitFor();
    expect(await page.content()).not.toContain(patLink);
  });

  it("changes the Admin to a Member after confirming; their screens become read only", async () => {
    const { page } = need(owner, "owner");
    pat = await signIn(need(browser, "browser"), need(server, "server").base, patLink, {
      viewport: { width: 375, height: 812 },
      colorScheme: "dark",
    });
    await pat.page.getByRole("link", { name: "Members" }).click();
    await pat.page.getByRole("button", { name: "Invite a member" }).waitFor();

    await page.getByRole("button", { name: "Change role of Pat Admin" }).click();
    const dialog = page.getByRole("dialog", { name: "Change the role of Pat Admin" });
    expect(await dialog.getByLabel("Role").inputValue()).toBe("admin");
    await dialog.getByLabel("Role").selectOption("member");
    await look(page, "settings-8-change-role");
    await dialog.getByRole("button", { name: "Save role" }).click();
    await page.getByRole("status").getByText("Pat Admin is now a Member.").waitFor();
    const row = page.getByRole("row", { name: /Pat Admin/ });
    await row.getByRole("cell", { name: "Member", exact: true }).waitFor();
    const listed = await api("GET", "/v1/manage/members", { token: demo.memberToken });
    expect(listed.json.data.map((m: { role: string }) => m.role)).toEqual(["owner", "member"]);

    // Pat, on the next load: the list without controls, their own row marked.
    await pat.page.reload();
    await pat.page.getByRole("row", { name: /Pat Admin \(you\)/ }).waitFor();
    expect(await pat.page.getByRole("main").getByRole("button").count()).toBe(0);
    expect(await pat.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await look(pat.page, "settings-9-members-read-only-375-dark");
    await pat.page.getByRole("link", { name: "Secrets" }).click();
    await pat.page.getByRole("rowheader", { name: "WEBHOOK_SECRET" }).waitFor();
    expect(await pat.page.getByRole("main").getByRole("button").count()).toBe(0);
    await look(pat.page, "settings-10-secrets-read-only-375-dark");
    expect(pat.problems).toEqual([]);
  });

  it("makes a new sign-in link, then removes the member after confirming", async () => {
    const { page, problems } = need(owner, "owner");
    await page.getByRole("button", { name: "Sign-in link for Pat Admin" }).click();
    const ask = page.getByRole("dialog", { name: "Make a new sign-in link?" });
    await ask.getByRole("button", { name: "Make link" }).click();
    const shown = page.getByRole("dialog", { name: "Hand over the sign-in link" });
    const link = await shown.getByLabel("Sign-in link for Pat Admin").inputValue();
    expect(link).not.toBe(patLink);
    expect(link).toMatch(/\/sign-in#token=si_[A-Za-z0-9_-]{43}$/);
    await shown.getByText("until").waitFor();
    await shown.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Remove Pat Admin" }).click();
    const confirm = page.getByRole("dialog", { name: "Remove this member?" });
    await look(page, "settings-11-remove-member");
    await confirm.getByRole("button", { name: "Remove Pat Admin" }).click();
    await page.getByRole("row", { name: /Pat Admin/ }).waitFor({ state: "detached" });
    await page.getByRole("status").getByText("Pat Admin was removed.").waitFor();
    // Their session ended with them.
    const patPage = need(pat, "pat").page;
    await patPage.goto(`${need(server, "server").base}/app/settings/members`);
    expect(new URL(patPage.url()).pathname).toBe("/sign-in");
    expect(problems).toEqual([]);
  });
});
