/**
 * Issue 14's story in one browser session (docs/dashboard.md) under `wrangler dev` and Debian's
 * Chromium, for a fresh workspace's owner: sign in by link; a passkey (the virtual authenticator),
 * sign out and in with it; an agent with Initial Parameters and a widget channel; a widget key
 * seen once; a link made with it through the API, found in Links; the person opens it (a phone,
 * dark) and the conversation shows on the link's page; a secret, then webhook → condition (a
 * header against the secret) → set on the canvas, saved, its URL copied, started, called, the
 * execution read; the key revoked, then refused. Each step: test-results/browser/story-*.png and
 * no serious or critical axe-core finding.
 */
import type { Browser, Locator } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Api } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { canvasNode, dragBetween, panel } from "./canvas";
import { launchChromium } from "./chromium";
import {
  addVirtualAuthenticator,
  type DashboardPage,
  look,
  need,
  onLocalhost,
  shotOnFailure,
  signIn,
  transcript,
} from "./dashboard-page";
import { chatOnLink } from "./person-chat";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

const SECRET = "story-hook-secret-8b41";
const GREETING = "Hello Ada, about order A-17?";
const QUESTION = "Where is my parcel?";
const DARK_PHONE = { viewport: { width: 375, height: 812 }, colorScheme: "dark" } as const;

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let ownerToken = "";
let owner: DashboardPage | undefined;
/** What the story carries from one step to the next. */
const story = { flowId: "", channelId: "", key: "", linkId: "", linkUrl: "" };

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  const created = await api("POST", "/v1/operator/workspaces", {
    token: server.operatorToken,
    body: { name: "Story shop", owner: { email: "olga@story.example", name: "Olga Owner" } },
  });
  expect(created.status, created.text).toBe(201);
  ownerToken = created.json.memberToken;
  browser = await launchChromium();
});

afterEach((context) => shotOnFailure(context, owner?.page, "story"));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const ownerPage = () => need(owner, "the owner's page").page;

describe("the dashboard's story", () => {
  it("1. signs in by a one-time link made through the API", async () => {
    const link = await api("POST", "/v1/manage/sign-in-links", { token: ownerToken, body: {} });
    expect(link.status, link.text).toBe(201);
    // The passkey of step 2 needs a domain, so the whole story runs on localhost.
    const base = onLocalhost(need(server, "server").base);
    owner = await signIn(need(browser, "browser"), base, onLocalhost(link.json.url));
    const page = ownerPage();
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    await look(page, "story-1-signed-in");
    // The link was for one use only: its page, given the token again, says so.
    const token = new URLSearchParams(new URL(link.json.url).hash.slice(1)).get("token") ?? "";
    const again = await fetch(new URL("/sign-in/continue", base), {
      method: "POST",
      headers: {
        origin: new URL(base).origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token }),
    });
    expect(again.status).toBe(410);
    expect(owner.problems).toEqual([]);
  });

  it("2. registers a passkey, signs out, and signs in with the passkey", async () => {
    const page = ownerPage();
    await addVirtualAuthenticator(page);
    await page.getByRole("link", { name: "Your passkeys" }).click();
    await page.getByLabel("Name").fill("Olga's laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("rowheader", { name: "Olga's laptop" }).waitFor();
    await look(page, "story-2-passkey-added");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByText("You are signed out").waitFor();
    await page.goto(new URL("/app", page.url()).href);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await look(page, "story-2-sign-in-page");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    const passkeys = await api("GET", "/v1/manage/passkeys", { token: ownerToken });
    expect(passkeys.json.data[0].lastUsedAt).not.toBeNull();
    expect(need(owner, "owner").problems).toEqual([]);
  });

  it("3. creates an agent with Initial Parameters and a widget channel", async () => {
    const page = ownerPage();
    await page.getByRole("link", { name: "Agents" }).click();
    await page.getByRole("button", { name: "New agent" }).click();
    const dialog = page.getByRole("dialog", { name: "New agent" });
    await dialog.getByLabel("Name", { exact: true }).fill("Order helper");
    await dialog
      .getByLabel("Greeting")
      .fill("Hello {{participant.name}}, about order {{parameters.orderId}}?");
    await dialog.getByRole("button", { name: "Add a parameter" }).click();
    const first = dialog.getByRole("group", { name: "Parameter 1" });
    await first.getByLabel("Name").fill("orderId");
    await first.getByLabel("Required").check();
    await dialog.getByRole("button", { name: "Add a parameter" }).click();
    const second = dialog.getByRole("group", { name: "Parameter 2" });
    await second.getByLabel("Name").fill("plan");
    await second.getByLabel(/Options/).fill("basic, pro");
    await look(page, "story-3-new-agent");
    await dialog.getByRole("button", { name: "Create agent" }).click();
    const row = page.getByRole("row", { name: /Order helper/ });
    await row.getByRole("cell", { name: /orderId/ }).waitFor();

    await row.getByRole("button", { name: "Channels of Order helper" }).click();
    const channels = page.getByRole("dialog", { name: "Channels of Order helper" });
    await channels.getByLabel("New widget channel").fill("Shop website");
    await channels.getByRole("button", { name: "Add channel" }).click();
    await channels.getByRole("button", { name: "Copy snippet of Shop website" }).click();
    // The ids a customer's server sends come from the snippet, as the spec says.
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    story.flowId = need(/data-flow-id="([^"]+)"/.exec(snippet)?.[1], "the snippet's flow id");
    story.channelId = need(/data-channel-id="([^"]+)"/.exec(snippet)?.[1], "the channel id");
    await look(page, "story-3-channel");
    await channels.getByRole("button", { name: "Close" }).click();
    const agent = await api("GET", `/v1/manage/agents/${story.flowId}`, { token: ownerToken });
    expect(agent.json.parameters).toEqual([
      expect.objectContaining({ name: "orderId", type: "string", required: true }),
      expect.objectContaining({ name: "plan", required: false, options: ["basic", "pro"] }),
    ]);
  });

  it("4. creates a widget key and sees it once", async () => {
    const page = ownerPage();
    await page.getByRole("link", { name: "Widget keys" }).click();
    await page.getByRole("button", { name: "Create widget key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a widget key" });
    await dialog.getByLabel("Name").fill("Shop server");
    await dialog.getByLabel("Order helper").check();
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Copy your widget key now" });
    await shown.getByText("This is the only time the key is shown").waitFor();
    await shown.getByRole("button", { name: "Copy key" }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    story.key = await page.evaluate(() => navigator.clipboard.readText());
    expect(story.key).toMatch(/^wk_live_/);
    expect(await shown.getByLabel(/Widget key/).inputValue()).toBe(story.key);
    await look(page, "story-4-key-once");
    await shown.getByRole("button", { name: "Done" }).click();
    await page.getByRole("row", { name: /Shop server/ }).waitFor();
    expect(await page.content()).not.toContain(story.key);
    await page.reload();
    await page.getByRole("row", { name: /Shop server/ }).waitFor();
    expect(await page.content()).not.toContain(story.key);
    await look(page, "story-4-keys");
  });

  it("5. creates a link with that key through the API and finds it in Links", async () => {
    const created = await api("POST", "/v1/widget/launches", {
      token: story.key,
      body: {
        flowId: story.flowId,
        channelId: story.channelId,
        parameters: { orderId: "A-17", plan: "pro" },
        participant: { name: "Ada", externalId: "cus_story_ada" },
      },
    });
    expect(created.status, created.text).toBe(201);
    story.linkId = created.json.id;
    story.linkUrl = created.json.url;
    const page = ownerPage();
    await page.getByRole("link", { name: "Links" }).click();
    const search = page.getByRole("search", { name: "Search links" });
    await search.getByLabel("Person's external id").fill("cus_story_ada");
    await search.getByRole("button", { name: "Search" }).click();
    await page.getByText("Showing 1 link.").waitFor();
    const row = page.getByRole("row", { name: /Ada/ });
    await row.getByRole("cell", { name: "Order helper" }).waitFor();
    await row.getByRole("cell", { name: "Pending" }).waitFor();
    await look(page, "story-5-links");
  });

  it("6. the person opens the link; the conversation shows on the link's page", async () => {
    const phone = await need(browser, "browser").newContext(DARK_PHONE);
    const chat = await phone.newPage();
    await chatOnLink(chat, story.linkUrl, QUESTION);
    expect(await chat.locator("#messages li").first().textContent()).toContain(GREETING);
    await look(chat, "story-6-chat-375-dark");

    const page = ownerPage();
    await page.getByRole("link", { name: "Ada" }).click();
    await page.getByRole("heading", { name: "Link for Ada", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/links/${story.linkId}`);
    await page.locator(".link-status").getByText("Active").waitFor();
    await page.locator(".transcript > li").nth(2).waitFor();
    expect((await transcript(page)).slice(0, 2)).toEqual([
      ["Order helper", GREETING],
      ["Ada", QUESTION],
    ]);
    await look(page, "story-6-conversation");
    await phone.close();
    expect(need(owner, "owner").problems).toEqual([]);
  });

  it("7. builds a workflow on the canvas, starts it, calls it and reads the execution", async () => {
    const page = ownerPage();
    await page.getByRole("link", { name: "Secrets" }).click();
    await page.getByRole("button", { name: "Set a secret" }).click();
    const secret = page.getByRole("dialog", { name: "Set a secret" });
    await secret.getByLabel("Name").fill("HOOK_SECRET");
    await secret.getByLabel("Value").fill(SECRET);
    await secret.getByRole("button", { name: "Save secret" }).click();
    await page.getByRole("status").getByText("Secret HOOK_SECRET saved.").waitFor();

    await page.getByRole("link", { name: "Workflows" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    const dialog = page.getByRole("dialog", { name: "New workflow" });
    await dialog.getByLabel("Name").fill("Signed orders");
    await dialog.getByRole("button", { name: "Create and open the editor" }).click();
    await canvasNode(page, "Webhook").waitFor();
    const palette = page.getByRole("region", { name: "Add a node" });
    await palette.getByRole("button", { name: "Condition" }).click();
    await palette.getByRole("button", { name: "Set" }).click();
    // Each was connected from the node selected before it; the drags below are then refused as
    // repeats, and would make the connections otherwise.
    const [condition, set] = [canvasNode(page, "Condition"), canvasNode(page, "Set")];
    const input = (node: Locator) => node.locator(".react-flow__handle.target");
    await set.waitFor();
    const webhookOut = canvasNode(page, "Webhook").locator(".react-flow__handle.source");
    await dragBetween(page, webhookOut, input(condition));
    await dragBetween(page, condition.locator(".wf-handle-true"), input(set));
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(2);

    await condition.click();
    await panel(page)
      .getByLabel("Left value", { exact: true })
      .fill("{{webhook_1.headers.x-secret}}");
    await panel(page).getByLabel("Operator").selectOption("equals");
    await panel(page)
      .getByLabel("Insert a field into Right")
      .selectOption("{{secrets.HOOK_SECRET}}");
    await panel(page).getByRole("listitem").filter({ hasText: "true: Set (set_1)" }).waitFor();
    await set.click();
    await panel(page)
      .getByLabel("Fields", { exact: true })
      .fill('{"accepted": true, "order": "{{webhook_1.body.order}}"}');
    await page.getByRole("button", { name: "Tidy up" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await look(page, "story-7-canvas");

    await canvasNode(page, "Webhook").click();
    await panel(page).getByRole("button", { name: "Copy the production URL" }).click();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toBe(await panel(page).getByLabel("Production URL").inputValue());
    await page.getByRole("button", { name: "Start Signed orders" }).click();
    await page.getByText("Signed orders is running").waitFor();
    const called = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-secret": SECRET },
      body: JSON.stringify({ order: "A-17" }),
    });
    expect(called.status).toBe(200);
    await page.getByRole("link", { name: "Executions" }).click();
    const executions = page.getByRole("region", { name: "Executions" }).getByRole("row");
    await expect.poll(() => executions.count()).toBe(2);
    await executions.nth(1).getByRole("link").click();
    // The set node's output, as the true branch made it from the call.
    const output = page.getByRole("article", { name: /set_1/ }).getByText('"accepted": true');
    await output.waitFor();
    expect(await output.textContent()).toContain('"order": "A-17"');
    await look(page, "story-7-execution");
    expect(need(owner, "owner").problems).toEqual([]);
  });

  it("8. revokes the widget key after confirming; the API then refuses it", async () => {
    const page = ownerPage();
    await page.getByRole("link", { name: "Widget keys" }).click();
    // The list may be up to 10 s old (the dashboard's staleTime); Last used shows step 5's call.
    await page.reload();
    const row = page.getByRole("row", { name: /Shop server/ });
    await row.getByRole("cell").nth(-2).locator("time").waitFor();
    await row.getByRole("button", { name: "Revoke Shop server" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke this widget key?" });
    await look(page, "story-8-revoke-confirm");
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await row.waitFor({ state: "detached" });
    const refused = await api("GET", `/v1/widget/launches/${story.linkId}`, { token: story.key });
    expect([refused.status, refused.json.error.code]).toEqual([401, "invalid_key"]);
    // The same screen on a phone, in dark mode.
    await page.setViewportSize(DARK_PHONE.viewport);
    await page.emulateMedia({ colorScheme: DARK_PHONE.colorScheme });
    await look(page, "story-8-revoked-375-dark");
    expect(need(owner, "owner").problems).toEqual([]);
  });
});
