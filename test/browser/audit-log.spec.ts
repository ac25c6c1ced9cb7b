/**
 * Settings › Audit log in a real browser (docs/dashboard.md#screens), under `wrangler dev` and
 * Debian's Chromium. The owner sets a secret in the dashboard and an Admin changes widget keys
 * through the API; the owner finds every change listed newest first with who made it, filters by
 * action and by who (the filters in the address), and pages with Load more. The Admin reads the
 * log at 390×844 in dark mode; a Member is not offered it. axe-core finds nothing serious or
 * critical. Screenshots go to test-results/browser/audit-log-*.png.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { type DashboardPage, look, need, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace;
let owner: DashboardPage | undefined;
let admin: { id: string; token: string; signInUrl: string } | undefined;

const SMALL_DARK = { viewport: { width: 390, height: 844 }, colorScheme: "dark" } as const;

/** Invites someone with `role` through the API: their id, token and one-time sign-in link. */
async function invite(name: string, role: "admin" | "member") {
  const { json } = await api("POST", "/v1/manage/members", {
    token: demo.memberToken,
    body: { email: `${name.split(" ")[0]?.toLowerCase()}@demo.example`, name, role },
  });
  return { id: json.member.id, token: json.memberToken, signInUrl: json.signInUrl };
}

/** The rows of the audit log table as [who, what] pairs, top to bottom. */
function rows(page: DashboardPage["page"]): Promise<string[][]> {
  return page
    .locator(".audit-rows tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector("th")?.firstChild?.textContent ?? "",
        tr.querySelectorAll("td")[1]?.firstChild?.textContent ?? "",
      ]),
    );
}

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  browser = await launchChromium();
  const link = await api("POST", "/v1/manage/sign-in-links", { token: demo.memberToken, body: {} });
  owner = await signIn(browser, server.base, link.json.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("Settings › Audit log", () => {
  it("lists the workspace's changes newest first: who, what, on what, from where", async () => {
    const { page, problems } = need(owner, "owner");
    // A change in the dashboard, by the owner's session.
    await page.getByRole("link", { name: "Secrets" }).click();
    await page.getByRole("button", { name: "Set a secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Set a secret" });
    await dialog.getByLabel("Name").fill("STRIPE_API_KEY");
    await dialog.getByLabel("Value").fill("sk_test_not_in_the_log_42");
    await dialog.getByRole("button", { name: "Save secret" }).click();
    await page.getByRole("status").getByText("Secret STRIPE_API_KEY saved.").waitFor();
    // Changes through the API, by an Admin's token.
    admin = await invite("Ada Admin", "admin");
    const key = await api("POST", "/v1/manage/widget-keys", {
      token: admin.token,
      body: { name: "Ada's key" },
    });
    await api("DELETE", `/v1/manage/widget-keys/${key.json.id}`, { token: admin.token });

    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings/audit-log");
    await page.locator(".audit-rows tr").first().waitFor();
    expect((await rows(page)).slice(0, 4)).toEqual([
      ["Ada Admin", "Revoked a widget key"],
      ["Ada Admin", "Created a widget key"],
      ["Demo Owner", "Invited a member"],
      ["Demo Owner", "Set a secret"],
    ]);
    const secretRow = page.locator(".audit-rows tr").nth(3);
    await secretRow.getByText("STRIPE_API_KEY").waitFor();
    // The session's own browser, and its network rather than its address.
    expect(await secretRow.locator("td").last().textContent()).toMatch(/\/(24|48).*Chrome/);
    expect(await page.content()).not.toContain("sk_test_not_in_the_log_42");
    await page
      .getByRole("cell", { name: /Signed in/ })
      .first()
      .waitFor();
    await page.getByRole("row", { name: /The operator/ }).waitFor();
    await look(page, "audit-log-1-list");
    expect(problems).toEqual([]);
  });

  it("filters by action and by who, the filters kept in the address", async () => {
    const { page, problems } = need(owner, "owner");
    await page.getByLabel("Action").selectOption({ label: "Set a secret" });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\?action=secret\.set$/);
    await page.getByRole("status").getByText("Showing 1 entry.").waitFor();
    expect(await rows(page)).toEqual([["Demo Owner", "Set a secret"]]);
    await look(page, "audit-log-2-by-action");

    await page.getByRole("link", { name: "Clear filters" }).click();
    await page.getByLabel("Who").selectOption({ label: "Ada Admin" });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\?actorId=mem_/);
    await page.getByRole("status").getByText("Showing 2 entries.").waitFor();
    expect(await rows(page)).toEqual([
      ["Ada Admin", "Revoked a widget key"],
      ["Ada Admin", "Created a widget key"],
    ]);
    // Back (past the cleared view) returns to the action filter, fields and rows.
    await page.goBack();
    await page.waitForURL(/\/audit-log$/);
    await page.goBack();
    await page.getByRole("status").getByText("Showing 1 entry.").waitFor();
    expect(await page.getByLabel("Action").inputValue()).toBe("secret.set");
    expect(problems).toEqual([]);
  });

  it("shows 20 entries at a time, with Load more", async () => {
    const { page, problems } = need(owner, "owner");
    for (let i = 0; i < 20; i++) {
      await api("PUT", `/v1/manage/secrets/BULK_${i}`, {
        token: demo.memberToken,
        body: { value: "v" },
      });
    }
    await page.goto(`${need(server, "server").base}/app/settings/audit-log`);
    await page.getByRole("status").getByText("Showing the newest 20 entries").waitFor();
    expect(await page.locator(".audit-rows tr").count()).toBe(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await page
      .getByRole("status")
      .getByText(/^Showing \d+ entries\.$/)
      .waitFor();
    expect(await page.locator(".audit-rows tr").count()).toBeGreaterThan(20);
    // Focus moved on to the first entry of the new page.
    expect(
      await page.evaluate(() => document.activeElement?.closest(".audit-rows tr") !== null),
    ).toBe(true);
    expect(problems).toEqual([]);
  });

  it("is read by an Admin at 390×844 in dark mode, and not offered to a Member", async () => {
    const { base } = need(server, "server");
    const ada = await signIn(
      need(browser, "browser"),
      base,
      need(admin, "admin").signInUrl,
      SMALL_DARK,
    );
    await ada.page.getByRole("link", { name: "Audit log" }).click();
    await ada.page.locator(".audit-rows tr").first().waitFor();
    // Ada's own sign-in is the newest entry.
    expect((await rows(ada.page))[0]).toEqual(["Ada Admin", "Signed in"]);
    expect(await ada.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await ada.page.locator(".audit-table").scrollIntoViewIfNeeded();
    await look(ada.page, "audit-log-3-admin-390-dark");
    expect(ada.problems).toEqual([]);

    const mo = await invite("Mo Member", "member");
    const member = await signIn(need(browser, "browser"), base, mo.signInUrl, SMALL_DARK);
    expect(await member.page.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await member.page.goto(`${base}/app/settings/audit-log`);
    await member.page
      .getByText("Only the workspace's Owners and Admins can read the audit log.")
      .waitFor();
    await look(member.page, "audit-log-4-member-390-dark");
    // Nothing was asked of the API that it would refuse.
    expect(member.problems).toEqual([]);
    const refused = await api("GET", "/v1/manage/audit-log", { token: mo.token });
    expect(refused.status).toBe(403);
  });
});
