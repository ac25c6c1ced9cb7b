/**
 * End to end in a real browser: a customer's server creates personal conversation links, and a
 * person chats through the hosted chat page and through the widget embedded in the customer's
 * own page (another origin). Runs against an isolated `wrangler dev` (./wrangler-server.ts) and
 * Debian's Chromium; never downloads a browser.
 *
 * The steps share one server, one seeded workspace and open pages, so they run in order; a step
 * whose prerequisite failed says so instead of failing somewhere confusing. Screenshots (and, on a
 * failure, one per open page) go to test-results/browser/.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { startThirdPartySite, type ThirdPartySite } from "./third-party-site";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");
const GREETING = "Hi Ada! Let's set up your Pro plan.";
const AGENT_NAME = "Onboarding assistant";
/** Well-formed, but no link has it. */
const NEVER_VALID_TOKEN = "A".repeat(43);
const STATE_TIMEOUT_MS = 30_000;
const REPLY_TIMEOUT_MS = 30_000;
/** The spec's promise: a revoked link closes an open chat within 10 s. */
const REVOKE_TIMEOUT_MS = 10_000;

type Launch = {
  id: string;
  status: string;
  token: string;
  url: string;
  embedHtml: string;
  expiresAt: string;
};

type LaunchLookup = {
  status: string;
  conversation: {
    sessionId: string;
    status: "in-progress" | "ended";
    startedAt: string;
    endedAt: string | null;
  } | null;
};

type Message = { role: "agent" | "person" | "other"; text: string };

/** A page with what it did, for the token checks and for error messages. */
type Watched = {
  name: string;
  page: Page;
  log: string[];
  requests: { url: string; headers: Promise<Record<string, string>> }[];
};

let server: WranglerServer | undefined;
let demo: DemoWorkspace | undefined;
let browser: Browser | undefined;
const sites: ThirdPartySite[] = [];
const watchedPages: Watched[] = [];

// Handed from step to step.
let firstLink: Launch | undefined;
let firstChat: Watched | undefined;
let secondLink: Launch | undefined;
let embedded: Watched | undefined;
let widgetFrame: Frame | undefined;

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`No ${what}: an earlier step failed; see its error.`);
  return value;
}

const base = () => need(server, "wrangler dev server (beforeAll failed)").base;
const widgetKey = () => need(demo, "seeded workspace (beforeAll failed)").widgetKey;

/** The `Api` of scripts/demo-seed.mjs, over fetch against the test server. */
const api: Api = (method, route, options) => fetchApi(base())(method, route, options);

/** What the customer's server does: a link for Ada on the Pro plan. */
async function createLink(): Promise<Launch> {
  const { agentId, channelId } = need(demo, "seeded workspace (beforeAll failed)");
  const res = await api("POST", "/v1/widget/launches", {
    token: widgetKey(),
    body: {
      flowId: agentId,
      channelId,
      parameters: { plan: "Pro" },
      participant: { name: "Ada", externalId: "user-42" },
    },
  });
  expect(res.status, `POST /v1/widget/launches answered: ${res.text}`).toBe(201);
  const link = res.json as Launch;
  expect(link).toMatchObject({ status: "pending", id: expect.any(String) });
  expect(link.token, "the link's token").toEqual(expect.any(String));
  expect(link.url).toBe(`${base()}/chat#launch=${link.token}`);
  expect(link.embedHtml).toContain(`${base()}/widget.js`);
  return link;
}

async function lookup(id: string): Promise<LaunchLookup> {
  const res = await api("GET", `/v1/widget/launches/${id}`, { token: widgetKey() });
  expect(res.status, `GET /v1/widget/launches/${id} answered: ${res.text}`).toBe(200);
  return res.json as LaunchLookup;
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => setTimeout(resolve, ms, fallback))]);
}

/** A new page in a context of its own (no storage shared with other steps), watched. */
async function openPage(name: string): Promise<Watched> {
  const context = await need(browser, "browser (beforeAll failed)").newContext();
  context.setDefaultTimeout(STATE_TIMEOUT_MS);
  const page = await context.newPage();
  const watched: Watched = { name, page, log: [], requests: [] };
  const log = (line: string) => watched.log.push(line);
  page.on("console", (m) => log(`[console.${m.type()}] ${m.text()} (${m.location().url})`));
  page.on("response", (r) => {
    if (r.status() >= 400)
      log(`[http ${r.status()}] ${r.request().method()} ${r.url().split("#")[0]}`);
  });
  page.on("pageerror", (e) => log(`[pageerror] ${e.message}`));
  page.on("requestfailed", (r) =>
    log(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ""}`),
  );
  page.on("request", (r) => {
    // headers() has the provisional headers (Referer among them); allHeaders() the ones sent, but
    // it may wait on a request that never completes (a stream), hence the bound.
    const sent = withTimeout(r.allHeaders(), 5_000, {}).catch(() => ({}));
    watched.requests.push({
      url: r.url(),
      headers: sent.then((all) => ({ ...r.headers(), ...all })),
    });
  });
  page.on("websocket", (ws) =>
    watched.requests.push({ url: ws.url(), headers: Promise.resolve({}) }),
  );
  watchedPages.push(watched);
  return watched;
}

/** State, notice, messages and console of a frame: what a failure message needs. */
async function describeFrame(frame: Frame, watched: Watched): Promise<string> {
  const seen = await frame
    .evaluate(() => ({
      state: document.documentElement.dataset.state ?? null,
      notice: document.querySelector("#notice")?.textContent?.trim() ?? null,
      path: location.pathname,
    }))
    .catch((error: Error) => ({ error: error.message }));
  const messages = await readMessages(frame).catch(() => []);
  return [
    `page "${watched.name}" now: ${JSON.stringify(seen)}`,
    `messages: ${JSON.stringify(messages)}`,
    `browser log (last 30):\n${watched.log.slice(-30).join("\n") || "(empty)"}`,
  ].join("\n");
}

/** Waits until `predicate(arg)` holds in the frame; on timeout says what and what the page shows. */
async function waitUntil(
  frame: Frame,
  watched: Watched,
  what: string,
  predicate: (arg: string) => boolean,
  arg: string,
  timeout = STATE_TIMEOUT_MS,
): Promise<void> {
  try {
    await frame.waitForFunction(predicate, arg, { timeout });
  } catch (error) {
    throw new Error(`Waited ${timeout} ms for ${what}.\n${await describeFrame(frame, watched)}`, {
      cause: error,
    });
  }
}

function waitForState(frame: Frame, watched: Watched, state: string, timeout = STATE_TIMEOUT_MS) {
  return waitUntil(
    frame,
    watched,
    `data-state="${state}"`,
    (expected) => document.documentElement.dataset.state === expected,
    state,
    timeout,
  );
}

/**
 * The messages in order, each li's text without its <time> (which may be formatted relatively);
 * a reply's draft is not a message yet: it has no speaker, and its message replaces it.
 */
function readMessages(frame: Frame): Promise<Message[]> {
  return frame.locator("#messages li.message:not(.draft)").evaluateAll((items) =>
    items.map((li) => {
      const copy = li.cloneNode(true) as HTMLElement;
      for (const time of copy.querySelectorAll("time")) time.remove();
      const role: Message["role"] = li.classList.contains("agent")
        ? "agent"
        : li.classList.contains("person")
          ? "person"
          : "other";
      return { role, text: (copy.textContent ?? "").replace(/\s+/g, " ").trim() };
    }),
  );
}

function waitForGreeting(frame: Frame, watched: Watched) {
  return waitUntil(
    frame,
    watched,
    `the agent's greeting "${GREETING}" as the first message`,
    (greeting) => {
      const first = document.querySelector("#messages li.message");
      return !!first?.classList.contains("agent") && !!first.textContent?.includes(greeting);
    },
    GREETING,
  );
}

/** Types `text`, presses Enter, and waits for it as a person message and for the agent's answer. */
async function sendAndAwaitReply(frame: Frame, watched: Watched, text: string): Promise<void> {
  const input = frame.locator("#message-input");
  await input.fill(text);
  await input.press("Enter");
  await waitUntil(
    frame,
    watched,
    `a person message containing "${text}"`,
    (sent) =>
      [...document.querySelectorAll("#messages li.message.person")].some((li) =>
        li.textContent?.includes(sent),
      ),
    text,
  );
  await waitUntil(
    frame,
    watched,
    `an agent reply containing "${text}" after the person message`,
    (sent) => {
      const items = [...document.querySelectorAll("#messages li.message:not(.draft)")];
      const mine = items.findLastIndex(
        (li) => li.classList.contains("person") && !!li.textContent?.includes(sent),
      );
      return (
        mine >= 0 &&
        items
          .slice(mine + 1)
          .some((li) => li.classList.contains("agent") && !!li.textContent?.includes(sent))
      );
    },
    text,
    REPLY_TIMEOUT_MS,
  );
}

/** Requests of the page whose URL (the fragment is never sent) or Referer carries a token. */
async function tokenLeaks(watched: Watched, tokens: string[]): Promise<string[]> {
  const leaks: string[] = [];
  for (const request of watched.requests) {
    const sentUrl = request.url.split("#")[0] ?? "";
    const referer = (await request.headers).referer ?? "";
    for (const token of tokens) {
      if (sentUrl.includes(token)) leaks.push(`URL ${sentUrl}`);
      if (referer.includes(token)) leaks.push(`Referer ${referer} (request to ${sentUrl})`);
    }
  }
  return leaks;
}

function screenshot(page: Page, file: string, fullPage = false) {
  return page.screenshot({ path: path.join(SCREENSHOTS, file), fullPage });
}

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startWranglerServer();
  demo = await seedDemoWorkspace(api, server.operatorToken);
  browser = await launchChromium();
});

afterEach(async ({ task }) => {
  if (task.result?.state !== "fail") return;
  const step = task.name.split(".")[0];
  for (const watched of watchedPages) {
    if (watched.page.isClosed()) continue;
    await screenshot(watched.page, `failed-${step}-${watched.name}.png`, true).catch(() => {});
  }
});

afterAll(async () => {
  // Each one even when another fails: a leftover workerd or Chromium would outlive the run.
  await Promise.allSettled([browser?.close(), ...sites.map((site) => site.close())]);
  await server?.stop();
});

describe("chat page and widget in a browser", () => {
  it("a. a fresh link opens the chat page with the agent's greeting", async () => {
    firstLink = await createLink();
    firstChat = await openPage("chat");
    const frame = firstChat.page.mainFrame();
    await firstChat.page.goto(firstLink.url, { waitUntil: "domcontentloaded" });
    await waitForState(frame, firstChat, "open");
    await waitForGreeting(frame, firstChat);
    expect(await frame.locator("#agent-name").textContent()).toContain(AGENT_NAME);
    const [first] = await readMessages(frame);
    expect(first).toEqual({ role: "agent", text: expect.stringContaining(GREETING) });
    await screenshot(firstChat.page, "chat-page.png");
  });

  it("b. a message sent with Enter appears, then the agent's reply quoting it", async () => {
    const chat = need(firstChat, "chat page from step a");
    await sendAndAwaitReply(chat.page.mainFrame(), chat, "When does my trial end?");
  });

  it("c. a reload continues the same conversation", async () => {
    const chat = need(firstChat, "chat page from step a");
    const frame = chat.page.mainFrame();
    const before = await readMessages(frame);
    expect(before.length, "messages before the reload").toBeGreaterThanOrEqual(3);
    await chat.page.reload({ waitUntil: "domcontentloaded" });
    await waitForState(frame, chat, "open");
    await waitUntil(
      frame,
      chat,
      `the ${before.length} earlier messages after the reload`,
      (count) =>
        document.querySelectorAll("#messages li.message:not(.draft)").length >= Number(count),
      String(before.length),
    );
    expect(await readMessages(frame)).toEqual(before);
  });

  it("d. the look-up shows the link active with its conversation in progress", async () => {
    const found = await lookup(need(firstLink, "link from step a").id);
    expect(found.status).toBe("active");
    expect(found.conversation).toMatchObject({ status: "in-progress", endedAt: null });
    expect(found.conversation?.sessionId).toMatch(/^ses_/);
  });

  it("e. the token never left the browser in a URL or a Referer", async () => {
    const chat = need(firstChat, "chat page from step a");
    expect(chat.requests.length, "requests recorded").toBeGreaterThan(0);
    expect(await tokenLeaks(chat, [need(firstLink, "link from step a").token])).toEqual([]);
  });

  it("f. the widget embedded in another origin's page opens the chat and answers", async () => {
    secondLink = await createLink();
    const site = await startThirdPartySite(
      `<!doctype html><html><head><title>Shop</title></head><body><h1>Customer site</h1>${secondLink.embedHtml}</body></html>`,
    );
    sites.push(site);
    expect(new URL(site.url).origin).not.toBe(base());
    embedded = await openPage("embedded");
    const { page } = embedded;
    await page.goto(site.url);

    // CSS locators pierce the widget's open shadow root.
    const launcher = page.locator("#agent-edge-launcher");
    await launcher.waitFor().catch(async (error: Error) => {
      throw new Error(
        `The widget's launcher #agent-edge-launcher did not appear.\n${await describeFrame(page.mainFrame(), need(embedded, "embedded page"))}`,
        { cause: error },
      );
    });
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat");
    await launcher.click();

    const iframe = page.locator('iframe[title="Chat"]');
    await iframe.waitFor();
    const src = new URL((await iframe.getAttribute("src")) ?? "", base());
    // The channel's embedded chat (docs/security.md#chat-embedding), the token in the fragment.
    const { channelId } = need(demo, "seeded workspace (beforeAll failed)");
    expect(`${src.origin}${src.pathname}${src.search}`).toBe(`${base()}/chat/embed/${channelId}`);
    expect(src.hash).toBe(`#launch=${secondLink.token}`);

    const frame = await (await iframe.elementHandle())?.contentFrame();
    widgetFrame = need(frame ?? undefined, "frame of the chat iframe");
    await waitForState(widgetFrame, embedded, "open");
    await waitForGreeting(widgetFrame, embedded);
    await sendAndAwaitReply(widgetFrame, embedded, "Hello from the widget");
    await screenshot(page, "embedded-widget.png", true);

    const tokens = [secondLink.token, need(firstLink, "link from step a").token];
    expect(await tokenLeaks(embedded, tokens)).toEqual([]);
  });

  it("g. revoking the link closes the open chat at once, and the link stays revoked", async () => {
    const chat = need(firstChat, "chat page from step a");
    const link = need(firstLink, "link from step a");
    const frame = chat.page.mainFrame();
    await waitForState(frame, chat, "open", 5_000);

    const res = await api("DELETE", `/v1/widget/launches/${link.id}`, { token: widgetKey() });
    expect(res.status, `DELETE answered: ${res.text}`).toBe(204);
    await waitForState(frame, chat, "revoked", REVOKE_TIMEOUT_MS);
    await waitUntil(
      frame,
      chat,
      `#notice to mention "revoked"`,
      (word) => !!document.querySelector("#notice")?.textContent?.toLowerCase().includes(word),
      "revoked",
      5_000,
    );

    const fresh = await openPage("revoked");
    const freshFrame = fresh.page.mainFrame();
    await fresh.page.goto(link.url, { waitUntil: "domcontentloaded" });
    await waitForState(freshFrame, fresh, "revoked");
    expect(await freshFrame.locator("#message-input").isVisible(), "#message-input").toBe(false);
    expect(await freshFrame.locator("#send").isVisible(), "#send").toBe(false);
    await screenshot(fresh.page, "revoked.png");
  });

  it("h. ending the chat in the widget ends the conversation", async () => {
    const page = need(embedded, "embedded page from step f");
    const frame = need(widgetFrame, "widget iframe from step f");
    const link = need(secondLink, "link from step f");
    await frame.locator("#end-chat").click();
    await frame
      .getByRole("dialog", { name: "End this chat?" })
      .getByRole("button", { name: "End chat" })
      .click();
    await waitForState(frame, page, "ended");
    // The look-up may trail the page by a moment.
    await expect
      .poll(async () => (await lookup(link.id)).status, { timeout: 10_000, interval: 250 })
      .toBe("ended");
    const found = await lookup(link.id);
    expect(found.conversation?.status).toBe("ended");
    expect(found.conversation?.endedAt).toEqual(expect.any(String));
  });

  it("i. a token that was never valid shows the invalid state", async () => {
    const invalid = await openPage("invalid");
    await invalid.page.goto(`${base()}/chat#launch=${NEVER_VALID_TOKEN}`, {
      waitUntil: "domcontentloaded",
    });
    await waitForState(invalid.page.mainFrame(), invalid, "invalid");
  });
});
