/**
 * What the chat page's browser specs (chat-*.spec.ts, docs/chat.md) share: one `wrangler dev`
 * with the demo workspace and Chromium; links made the way a customer's server makes them; the
 * page opened in each of four looks (desktop and 375 px, light and dark); a conversation's history
 * written over the socket from Node; screenshots in test-results/browser/chat-*.png, each with an
 * axe-core check of the state it shows.
 */
import fs from "node:fs";
import path from "node:path";
import axe from "axe-core";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { ROOT, startWranglerServer, type WranglerServer } from "./wrangler-server";

const SCREENSHOTS = path.join(ROOT, "test-results", "browser");
const TIMEOUT_MS = 30_000;

/** One look of the page: a viewport and a colour scheme. */
export type Variant = {
  name: string;
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
};

/** Every look each requirement is checked in. */
export const VARIANTS: Variant[] = [
  { name: "desktop-light", viewport: { width: 1280, height: 800 }, colorScheme: "light" },
  { name: "desktop-dark", viewport: { width: 1280, height: 800 }, colorScheme: "dark" },
  { name: "mobile-light", viewport: { width: 375, height: 667 }, colorScheme: "light" },
  { name: "mobile-dark", viewport: { width: 375, height: 667 }, colorScheme: "dark" },
];

/** The server, its seeded workspace, the browser and an API client for them. */
export type ChatWorld = {
  server: WranglerServer;
  demo: DemoWorkspace;
  browser: Browser;
  api: Api;
};

/** A created link as the launch API answers it. */
export type Launch = { id: string; token: string; url: string; embedHtml: string };

/** A page and what went wrong in it (page errors and console errors). */
export type ChatPage = { page: Page; variant: Variant; problems: string[] };

/**
 * Starts a ChatWorld before the file's tests and stops it after them; the function returned
 * gives the world. @throws when called before beforeAll set it up (it failed)
 */
export function setUpChatWorld(vars: Record<string, string> = {}): () => ChatWorld {
  let world: ChatWorld | undefined;
  beforeAll(async () => {
    world = await startChatWorld(vars);
  });
  afterAll(async () => {
    await stopChatWorld(world);
  });
  return () => {
    if (!world) throw new Error("the chat world is missing (beforeAll failed)");
    return world;
  };
}

/** Starts the server (with more Worker `vars` when given), seeds it and launches Chromium. */
export async function startChatWorld(vars: Record<string, string> = {}): Promise<ChatWorld> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await startWranglerServer(vars);
  const api = fetchApi(server.base);
  const demo = await seedDemoWorkspace(api, server.operatorToken);
  return { server, demo, api, browser: await launchChromium() };
}

/** Closes the browser and stops the server, each even when the other fails. */
export async function stopChatWorld(world: ChatWorld | undefined): Promise<void> {
  await Promise.allSettled([world?.browser.close()]);
  await world?.server.stop();
}

/**
 * Creates an agent of the demo workspace (an initiator when `body.greeting` is given) with a
 * widget channel; pass them to {@link createLink} as `flowId` and `channelId`.
 */
export async function createAgent(
  world: ChatWorld,
  body: Record<string, unknown>,
): Promise<{ flowId: string; channelId: string }> {
  const token = world.demo.memberToken;
  const agent = await world.api("POST", "/v1/manage/agents", {
    token,
    body: { mode: body.greeting ? "initiator" : "responder", parameters: [], ...body },
  });
  expect(agent.status, `POST /v1/manage/agents answered: ${agent.text}`).toBe(201);
  const channel = await world.api("POST", `/v1/manage/agents/${agent.json.id}/channels`, {
    token,
    body: { type: "widget", name: "Website" },
  });
  expect(channel.status, `POST …/channels answered: ${channel.text}`).toBe(201);
  return { flowId: agent.json.id, channelId: channel.json.id };
}

/** A link of the demo agent (or `extra.flowId`) for Ada, as the customer's server creates it. */
export async function createLink(
  world: ChatWorld,
  extra: Record<string, unknown> = {},
): Promise<Launch> {
  const res = await world.api("POST", "/v1/widget/launches", {
    token: world.demo.widgetKey,
    body: {
      flowId: world.demo.agentId,
      channelId: world.demo.channelId,
      parameters: { plan: "Pro" },
      participant: { name: "Ada", externalId: "user-42" },
      ...extra,
    },
  });
  expect(res.status, `POST /v1/widget/launches answered: ${res.text}`).toBe(201);
  return res.json as Launch;
}

/**
 * Opens `url` in a new context with the variant's viewport and colour scheme.
 * @param prepare runs before the page loads (routes, clocks)
 */
export async function openChat(
  world: ChatWorld,
  url: string,
  variant: Variant,
  prepare?: (page: Page) => Promise<void>,
): Promise<ChatPage> {
  const context = await world.browser.newContext({
    viewport: variant.viewport,
    colorScheme: variant.colorScheme,
  });
  context.setDefaultTimeout(TIMEOUT_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`[pageerror] ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`[console] ${message.text()}`);
  });
  await prepare?.(page);
  await page.goto(url, { waitUntil: "domcontentloaded" });
  return { page, variant, problems };
}

/** Closes the page's context. */
export async function closeChat(chat: ChatPage): Promise<void> {
  await chat.page.context().close();
}

/** Waits for `data-state`; on timeout says what the page shows. */
export async function waitForState(page: Page, state: string, timeout = TIMEOUT_MS): Promise<void> {
  try {
    await page.waitForFunction((s) => document.documentElement.dataset.state === s, state, {
      timeout,
    });
  } catch (error) {
    const seen = await page
      .evaluate(() => ({
        state: document.documentElement.dataset.state,
        notice: document.querySelector("#notice")?.textContent,
      }))
      .catch(() => null);
    throw new Error(
      `Waited ${timeout} ms for data-state="${state}"; the page: ${JSON.stringify(seen)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Saves a screenshot as test-results/browser/chat-`name`-`variant`.png and expects no serious or
 * critical axe-core finding on the page in this state (docs/chat.md#accessibility).
 */
export async function shot(chat: ChatPage, name: string): Promise<void> {
  await screenshot(chat, name);
  expect(await axeFindings(chat.page), `axe-core in ${name}, ${chat.variant.name}`).toEqual([]);
}

/** Saves a screenshot as test-results/browser/chat-`name`-`variant`.png, without checks. */
export async function screenshot(chat: ChatPage, name: string): Promise<void> {
  await chat.page.screenshot({
    path: path.join(SCREENSHOTS, `chat-${name}-${chat.variant.name}.png`),
  });
}

/**
 * Findings of {@link axeFindings} on a customer's page with the widget: its own landmarks are the
 * customer's business (`region` is left out), anything serious or critical is ours.
 */
export async function hostPageFindings(page: Page): Promise<string[]> {
  return (await axeFindings(page)).filter((finding) => !finding.startsWith("region:"));
}

/**
 * axe-core's serious and critical findings in `frame` (evaluated over CDP, which the page's CSP
 * does not govern), and its `region` findings, which issue 15 names: all content in landmarks.
 */
export async function axeFindings(frame: Page | Frame): Promise<string[]> {
  await frame.evaluate(axe.source);
  return frame.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "region")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** The texts of the shown messages, in order. */
export function messageTexts(page: Page): Promise<string[]> {
  return page
    .locator("#messages .message .text")
    .evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? "").trim()));
}

type SocketFrame = { type: string; message?: { role: string; text: string } };

/**
 * Writes a history: opens the link's session and, over its socket from Node, sends each text and
 * waits for the agent's reply to it. Resolves when every reply arrived.
 */
export async function seedMessages(
  world: ChatWorld,
  token: string,
  texts: string[],
): Promise<void> {
  const res = await fetch(`${world.server.base}/v1/chat/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  const session = (await res.json()) as { socketUrl?: string };
  if (!session.socketUrl) throw new Error(`no socketUrl: ${res.status} ${JSON.stringify(session)}`);
  const socket = new WebSocket(session.socketUrl);
  const frames: SocketFrame[] = [];
  let wake: (() => void) | undefined;
  socket.addEventListener("message", (event) => {
    frames.push(JSON.parse(String(event.data)) as SocketFrame);
    wake?.();
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  const deadline = Date.now() + TIMEOUT_MS;
  for (const text of texts) {
    socket.send(JSON.stringify({ type: "message", text }));
    // The scripted brain quotes the message in its reply.
    while (!frames.some((f) => f.message?.role === "agent" && f.message.text.includes(text))) {
      if (Date.now() > deadline) throw new Error(`no reply to "${text}"`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  }
  socket.close(1000);
}
