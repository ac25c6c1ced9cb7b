/**
 * Issue 32's story (README "A workflow that reaches the person", docs/workflows.md) under
 * `wrangler dev` and Debian's Chromium: the demo's "Payment failed" workflow gets a signed Stripe
 * event; its create_link opens a personal link for the customer and its http_request mails it to
 * the stand-in mailer; the person opens the link from the mail and finds the greeting, then the
 * workflow's question (written before the link was opened) with its two options as buttons;
 * answers with a button; the execution goes on by the `answered` branch on the owner's canvas and
 * the workflow's reply arrives in the open chat; the person ends the chat and rates it, and the
 * rating shows on the link's page. Each step: test-results/browser/payment-*.png and no serious or
 * critical axe-core finding.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type PaymentDemo,
  paymentFailedEvent,
  seedPaymentWorkflow,
  stripeSignature,
} from "../../scripts/demo-payment.mjs";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { type StandInMailer, startStandInMailer } from "../../scripts/stand-in-mailer.mjs";
import { canvasNode } from "./canvas";
import { launchChromium } from "./chromium";
import { type DashboardPage, look, need, shotOnFailure, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

const QUESTION = "Update your card now?";

let server: WranglerServer | undefined;
let mailer: StandInMailer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace;
let payment: PaymentDemo;
let owner: DashboardPage | undefined;
let person: Page | undefined;
/** What the story carries from one step to the next. */
const story = { executionId: "", url: "" };

beforeAll(async () => {
  // The workflow's http_request reaches the mailer on 127.0.0.1, as under `npm run dev`.
  server = await startWranglerServer({ ALLOW_PRIVATE_OUTBOUND: "true" });
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  mailer = await startStandInMailer();
  payment = await seedPaymentWorkflow(api, demo.memberToken, {
    mailerUrl: mailer.url,
    stripeSecret: "whsec_c3RvcnktcGF5bWVudC1zZWNyZXQ",
  });
  browser = await launchChromium();
});

afterEach(async (context) => {
  await shotOnFailure(context, person, "payment-person");
  await shotOnFailure(context, owner?.page, "payment-owner");
});

afterAll(async () => {
  await browser?.close();
  await mailer?.stop();
  await server?.stop();
});

/** The chat page's problems so far: page errors and console errors. */
const problems: string[] = [];

describe("a workflow that reaches the person", () => {
  it("1. a signed Stripe event starts it; the customer's personal link arrives by mail", async () => {
    const body = JSON.stringify(paymentFailedEvent(`story${Date.now()}`));
    const called = await fetch(payment.paymentWebhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": await stripeSignature(payment.stripeSecret, body),
      },
      body,
    });
    expect(called.status).toBe(200);
    story.executionId = ((await called.json()) as { executionId: string }).executionId;
    const inbox = need(mailer, "the mailer").messages;
    await expect.poll(() => inbox.length, { timeout: 15_000 }).toBe(1);
    expect(inbox[0]).toMatchObject({ to: "ada@demo.example" });
    story.url = need(inbox[0]?.text.match(/http\S+\/chat#launch=\S+/)?.[0], "the link in the mail");
  });

  it("2. the person opens it: the greeting, then the workflow's question with two buttons", async () => {
    const context = await need(browser, "the browser").newContext({
      viewport: { width: 390, height: 844 },
    });
    person = await context.newPage();
    person.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
    person.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
    await person.goto(story.url, { waitUntil: "domcontentloaded" });
    await person.waitForFunction(() => document.documentElement.dataset.state === "open");
    const agentTexts = person.locator("#messages li.message.agent");
    await agentTexts.nth(1).waitFor();
    expect(await agentTexts.nth(0).textContent()).toContain("this is about invoice in_1042");
    expect(await agentTexts.nth(1).textContent()).toContain(QUESTION);
    const options = person.getByRole("group", { name: QUESTION }).getByRole("button");
    expect(await options.allTextContents()).toEqual(["Yes, update my card", "Not now"]);
    await look(person, "payment-2-question");
  });

  it("3. answers with a button: the execution goes on and its reply arrives in the chat", async () => {
    const page = need(person, "the person's page");
    await page.getByRole("button", { name: "Yes, update my card" }).click();
    await page.locator("#messages li.message.person", { hasText: "Yes, update my card" }).waitFor();
    expect(await page.getByRole("group", { name: QUESTION }).count()).toBe(0);
    const reply = page.locator("#messages li.message.agent", { hasText: "Update your card on" });
    await reply.waitFor();
    expect(await reply.getByRole("link", { name: "your invoice page" }).getAttribute("href")).toBe(
      "https://invoice.stripe.com/i/demo_in_1042",
    );
    await look(page, "payment-3-answered");

    const link = await api("POST", "/v1/manage/sign-in-links", {
      token: demo.memberToken,
      body: {},
    });
    const base = need(server, "the server").base;
    owner = await signIn(need(browser, "the browser"), base, link.json.url, {
      viewport: { width: 1440, height: 900 },
    });
    const workflow = encodeURIComponent(payment.paymentWorkflowId);
    await owner.page.goto(
      `${base}/app/workflows/${workflow}/editor?debug=${encodeURIComponent(story.executionId)}`,
    );
    // The answered branch ran: the condition, then the card steps; the retry note did not.
    const ran = (name: string) => canvasNode(need(owner, "owner").page, name).locator(".wf-run");
    await ran("Send the card steps").locator(".wf-run-status", { hasText: "succeeded" }).waitFor();
    expect(await ran("Ask to update the card").textContent()).toContain("succeeded");
    expect(await ran("Send the retry note").count()).toBe(0);
    await look(owner.page, "payment-3-canvas");
    expect(owner.problems).toEqual([]);
  });

  it("4. the person ends the chat and rates it; the rating shows on the link's page", async () => {
    const page = need(person, "the person's page");
    await page.locator("#end-chat").click();
    await page
      .getByRole("dialog", { name: "End this chat?" })
      .getByRole("button", { name: "End chat" })
      .click();
    await page.waitForFunction(() => document.documentElement.dataset.state === "ended");
    const group = page.getByRole("group", { name: "How was this conversation?" });
    await group.waitFor();
    await group.locator('label[for="rating-5"]').click();
    await page.getByLabel("Comment (optional)").fill("Sorted in a minute.");
    await page.getByRole("button", { name: "Send rating" }).click();
    await page.getByText("Thanks for your rating!").waitFor();
    await look(page, "payment-4-rated");
    expect(problems).toEqual([]);

    const dashboard = need(owner, "owner").page;
    const links = await api("GET", "/v1/manage/links?limit=10", { token: demo.memberToken });
    const linkId = links.json.data.find(
      (l: { flowId: string }) => l.flowId === payment.billingAgentId,
    )?.id;
    await dashboard.goto(`${need(server, "the server").base}/app/links/${linkId}`);
    await dashboard.getByText("5 out of 5").waitFor();
    await dashboard.getByText("Sorted in a minute.").waitFor();
    await look(dashboard, "payment-4-link-page");
  });
});
