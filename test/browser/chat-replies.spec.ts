/**
 * The agent's replies on the chat page in a real browser (docs/chat.md#replies), at desktop and
 * 375 px, light and dark: "… is typing" while the agent writes; a reply that fails or takes over
 * 30 s gets a clear message and "Try again", which brings the reply. The socket passes through a
 * Playwright route that can hold, drop or replace the server's agent messages, so a slow or
 * failing agent is shown without a real model. Screenshots go to test-results/browser/chat-*.png.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatPage,
  type ChatWorld,
  closeChat,
  createLink,
  openChat,
  shot,
  startChatWorld,
  stopChatWorld,
  VARIANTS,
  waitForState,
} from "./chat-harness";

let world: ChatWorld | undefined;

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing (beforeAll failed)`);
  return value;
}

beforeAll(async () => {
  world = await startChatWorld();
});

afterAll(async () => {
  await stopChatWorld(world);
});

/** What the route does with the server's agent messages: pass, hold, drop or fail them. */
type Mode = "pass" | "hold" | "drop" | "fail";

/** Routes the page's socket through the test; `mode` decides the agent messages' fate. */
async function routeSocket(page: Page, control: { mode: Mode; held: (() => void)[] }) {
  await page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((data) => {
      const frame = JSON.parse(String(data)) as { type: string; message?: { role: string } };
      const agentMessage = frame.type === "message" && frame.message?.role === "agent";
      if (!agentMessage || control.mode === "pass") ws.send(data);
      else if (control.mode === "hold") control.held.push(() => ws.send(data));
      else if (control.mode === "fail") {
        const error = {
          code: "reply_failed",
          message: "The agent could not reply.",
          details: [{ reason: "failed" }],
        };
        ws.send(JSON.stringify({ type: "error", error }));
      }
    });
  });
}

async function send(chat: ChatPage, text: string): Promise<void> {
  await chat.page.locator("#message-input").fill(text);
  await chat.page.locator("#message-input").press("Enter");
  await chat.page.locator("#messages .message.person", { hasText: text }).waitFor();
}

const typing = (page: Page) => page.locator("#typing");
const tryAgain = (page: Page) => page.getByRole("button", { name: "Try again" });

describe("the agent's replies", () => {
  it("3. the agent is shown typing; a failed or late reply says so and Try again brings it", async () => {
    const w = need(world, "world");
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const control = { mode: "hold" as Mode, held: [] as (() => void)[] };
      const chat = await openChat(w, link.url, variant, async (page) => {
        await page.clock.install();
        await routeSocket(page, control);
      });
      const { page } = chat;
      await waitForState(page, "open");

      // Typing while the reply is held back, then the reply and no indicator.
      await send(chat, "Are you there?");
      await typing(page).getByText("Onboarding assistant is typing…").waitFor();
      await shot(chat, "3-typing");
      for (const release of control.held.splice(0)) release();
      await page.locator("#messages .message.agent", { hasText: "Are you there?" }).waitFor();
      expect(await typing(page).textContent()).toBe("");

      // A failed reply: a message and Try again, which brings the reply that exists by now.
      control.mode = "fail";
      await send(chat, "Second question");
      await page.getByText("Onboarding assistant could not reply. Please try again.").waitFor();
      await tryAgain(page).waitFor();
      expect(await typing(page).textContent()).toBe("");
      await shot(chat, "3-reply-failed");
      control.mode = "pass";
      await tryAgain(page).click();
      await page.locator("#messages .message.agent", { hasText: "Second question" }).waitFor();
      await tryAgain(page).waitFor({ state: "hidden" });
      expect(await page.locator("#notice").textContent()).toBe("");

      // Nothing at all for 30 s: the page says so by itself.
      control.mode = "drop";
      await send(chat, "Third question");
      await typing(page).getByText("Onboarding assistant is typing…").waitFor();
      await page.clock.fastForward(29_000);
      expect(await tryAgain(page).isVisible(), `${variant.name}: late before 30 s`).toBe(false);
      await page.clock.fastForward(1_500);
      await page.getByText("Onboarding assistant is taking too long to reply.").waitFor();
      expect(await typing(page).textContent()).toBe("");
      await shot(chat, "3-reply-late");
      control.mode = "pass";
      await tryAgain(page).click();
      await page.locator("#messages .message.agent", { hasText: "Third question" }).waitFor();
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });
});
