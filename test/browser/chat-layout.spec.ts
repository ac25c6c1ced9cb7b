/**
 * The chat page's layout in a real browser (docs/chat.md#layout), at desktop and 375 px, light and
 * dark: only the message list scrolls (a wheel anywhere else moves nothing, the composer stays on
 * screen). Screenshots go to test-results/browser/chat-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatWorld,
  closeChat,
  createLink,
  openChat,
  seedMessages,
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

/** Enough messages to overflow the list at any of the variants. */
const LONG_HISTORY = Array.from(
  { length: 8 },
  (_, i) => `Message ${i + 1} with enough words to wrap a little in the bubble, thanks.`,
);

beforeAll(async () => {
  world = await startChatWorld();
});

afterAll(async () => {
  await stopChatWorld(world);
});

describe("the chat page's layout", () => {
  it("1. only the message list scrolls: a wheel outside it moves nothing", async () => {
    const w = need(world, "world");
    const link = await createLink(w);
    await seedMessages(w, link.token, LONG_HISTORY);
    for (const variant of VARIANTS) {
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      await page
        .locator("#messages .message")
        .nth(LONG_HISTORY.length * 2)
        .waitFor();
      // The gutter beside the column on a desktop; the header on a phone (it has no gutter).
      const outside = variant.viewport.width > 800 ? { x: 40, y: 400 } : { x: 180, y: 20 };
      await page.mouse.move(outside.x, outside.y);
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 600);
      await page.keyboard.press("End");
      const layout = await page.evaluate(() => {
        const root = document.scrollingElement as HTMLElement;
        const composer = document.querySelector("#composer")?.getBoundingClientRect();
        const list = document.querySelector("#messages") as HTMLElement;
        return {
          scrollTop: root.scrollTop,
          overflow: root.scrollHeight - root.clientHeight,
          composerBottom: composer?.bottom ?? Number.POSITIVE_INFINITY,
          listScrolls: list.scrollHeight > list.clientHeight,
          innerHeight: window.innerHeight,
        };
      });
      expect(layout.scrollTop, `${variant.name}: the document scrolled`).toBe(0);
      expect(layout.overflow, `${variant.name}: the document can scroll`).toBeLessThanOrEqual(0);
      expect(layout.composerBottom).toBeLessThanOrEqual(layout.innerHeight);
      expect(layout.listScrolls, `${variant.name}: the list holds the overflow`).toBe(true);
      await shot(chat, "1-only-list-scrolls");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });
});
