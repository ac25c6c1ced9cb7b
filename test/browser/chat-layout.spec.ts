/**
 * The chat page's layout in a real browser (docs/chat.md#layout), at desktop and 375 px, light and
 * dark: only the message list scrolls (a wheel anywhere else moves nothing, the composer stays on
 * screen); the list opens, and reopens after a reload, at its newest message and follows arrivals,
 * unless the person scrolled up: then "New messages" appears; right-to-left text (Arabic, Hebrew)
 * is laid out right to left in messages and in the composer. Screenshots go to
 * test-results/browser/chat-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  axeFindings,
  closeChat,
  createAgent,
  createLink,
  hostPageFindings,
  openChat,
  screenshot,
  seedMessages,
  setUpChatWorld,
  shot,
  VARIANTS,
  waitForState,
} from "./chat-harness";
import { startThirdPartySite } from "./third-party-site";

const world = setUpChatWorld();

/** Enough messages to overflow the list at any of the variants. */
const LONG_HISTORY = Array.from(
  { length: 8 },
  (_, i) => `Message ${i + 1} with enough words to wrap a little in the bubble, thanks.`,
);

/** Where the list stands: at its end, and whether the newest message is wholly inside it. */
function listEnd(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector("#messages") as HTMLElement;
    const last = list.querySelector(".message:last-child")?.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    return {
      atEnd: list.scrollHeight - list.scrollTop - list.clientHeight <= 32,
      lastVisible: !!last && last.bottom <= box.bottom + 1 && last.top >= box.top - 1,
      scrollTop: list.scrollTop,
    };
  });
}

describe("the chat page's layout", () => {
  it("1. only the message list scrolls: a wheel outside it moves nothing", async () => {
    const w = world();
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

  it("2. the list opens at its newest message, after a reload too, and follows arrivals", async () => {
    const w = world();
    const link = await createLink(w);
    await seedMessages(w, link.token, LONG_HISTORY.slice(0, 7));
    let sent = 0;
    for (const variant of VARIANTS) {
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      const newMessages = page.getByRole("button", { name: "New messages" });
      for (const moment of ["opened", "reloaded"]) {
        if (moment === "reloaded") await page.reload({ waitUntil: "domcontentloaded" });
        await waitForState(page, "open");
        await page
          .locator("#messages .message")
          .nth(14 + 2 * sent)
          .waitFor();
        await page.waitForTimeout(300);
        const end = await listEnd(page);
        expect(end, `${variant.name}, ${moment}: the newest message in view`).toMatchObject({
          atEnd: true,
          lastVisible: true,
        });
      }
      await shot(chat, "2-opens-at-end");

      // Scrolled up to read: an arrival (from another tab) leaves the list where it is.
      await page.locator("#messages").hover();
      for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -800);
      await page.waitForFunction(() => document.querySelector("#messages")?.scrollTop === 0);
      const count = await page.locator("#messages .message").count();
      await seedMessages(w, link.token, [`Arrival ${++sent} while reading`]);
      await page
        .locator("#messages .message")
        .nth(count + 1)
        .waitFor();
      await newMessages.waitFor();
      expect((await listEnd(page)).scrollTop, `${variant.name}: the list stayed put`).toBe(0);
      await shot(chat, "2-new-messages");
      await newMessages.click();
      await newMessages.waitFor({ state: "hidden" });
      expect(await listEnd(page)).toMatchObject({ atEnd: true, lastVisible: true });

      // At the end, arrivals are followed without the button.
      await seedMessages(w, link.token, [`Arrival ${++sent} at the end`]);
      await page
        .locator("#messages .message")
        .nth(count + 3)
        .waitFor();
      await page.waitForTimeout(200);
      expect(await listEnd(page)).toMatchObject({ atEnd: true, lastVisible: true });
      expect(await newMessages.isVisible()).toBe(false);
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("4. right-to-left text is laid out right to left in messages and the composer", async () => {
    const w = world();
    const agent = await createAgent(w, {
      name: "مساعد الانضمام",
      greeting: "مرحبا {{participant.name}}! كيف يمكنني مساعدتك اليوم؟",
    });
    const arabic = "مرحبا، أريد تغيير خطتي من فضلك.";
    const hebrew = "שלום, אני רוצה לשנות את התוכנית שלי.";
    for (const variant of VARIANTS) {
      const link = await createLink(w, { ...agent, parameters: {} });
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      const input = page.locator("#message-input");
      // A reply's final message, not its draft: the draft is replaced when the reply ends, and a
      // node read while it is replaced has no direction.
      const agentMessages = page.locator("#messages .message.agent:not(.draft)");
      // Each reply is awaited before the next message, so the history alternates as listed below
      // (a streamed reply still being written would otherwise land after the next message).
      const sendAndAwaitReply = async () => {
        const before = await agentMessages.count();
        await input.press("Enter");
        await expect.poll(() => agentMessages.count()).toBe(before + 1);
      };
      await input.fill(hebrew);
      expect(await input.evaluate((node) => getComputedStyle(node).direction)).toBe("rtl");
      await sendAndAwaitReply();
      await input.fill(arabic);
      await sendAndAwaitReply();
      await input.fill("And one in English.");
      expect(await input.evaluate((node) => getComputedStyle(node).direction)).toBe("ltr");
      await sendAndAwaitReply();
      await agentMessages.filter({ hasText: "And one in English." }).waitFor();
      const directions = await page.locator("#messages .message .text").evaluateAll((nodes) =>
        nodes.map((node) => {
          // An agent's Markdown takes its direction per paragraph.
          const text = node.matches(".rich") ? (node.querySelector("p") ?? node) : node;
          return [text.textContent?.slice(0, 12), getComputedStyle(text).direction];
        }),
      );
      expect(directions.map(([, direction]) => direction)).toEqual([
        "rtl", // the greeting
        "rtl", // Hebrew
        "ltr", // the scripted reply starts in English
        "rtl", // Arabic
        "ltr",
        "ltr",
        "ltr",
      ]);
      expect(
        await page.locator("#agent-name").evaluate((node) => getComputedStyle(node).direction),
      ).toBe("rtl");
      await input.fill(arabic);
      await shot(chat, "4-right-to-left");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("9. keyboard and screen readers: a focusable log, focus after sending, axe clean everywhere", async () => {
    const w = world();
    const link = await createLink(w);
    await seedMessages(w, link.token, LONG_HISTORY.slice(0, 4));
    for (const variant of VARIANTS) {
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      await page.locator("#message-input").fill(`Sent with the button (${variant.name})`);
      await page.locator("#send").click();
      await page.locator("#messages .message.person", { hasText: variant.name }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("message-input");

      // The conversation is one Tab away from the composer and scrolls with the keyboard.
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("messages");
      expect(await page.getByRole("log", { name: "Conversation" }).count()).toBe(1);
      // Read once the scroll to the newest message has ended: a PageUp during it is undone by it.
      await expect
        .poll(() =>
          page
            .locator("#messages")
            .evaluate((node) => node.scrollHeight - node.clientHeight - node.scrollTop),
        )
        .toBeLessThanOrEqual(1);
      const before = await page.locator("#messages").evaluate((node) => node.scrollTop);
      await page.keyboard.press("PageUp");
      await expect
        .poll(() => page.locator("#messages").evaluate((node) => node.scrollTop))
        .toBeLessThan(before);
      await shot(chat, "9-log-focused");
      await closeChat(chat);

      const invalid = await openChat(w, `${w.server.base}/chat#launch=${"A".repeat(43)}`, variant);
      await waitForState(invalid.page, "invalid");
      await shot(invalid, "9-invalid");
      await closeChat(invalid);

      const failing = await openChat(w, link.url, variant, async (page) => {
        await page.route("**/v1/chat/sessions", (route) =>
          route.fulfill({ status: 503, body: "{}" }),
        );
      });
      await waitForState(failing.page, "error");
      await failing.page.getByRole("button", { name: "Try again" }).waitFor();
      await shot(failing, "9-error");
      await closeChat(failing);
    }
  });

  it("9. the widget: axe finds nothing serious, closed or open, nor inside its chat", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const site = await startThirdPartySite(
        `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,"></head><body><main><h1>Customer site</h1><p>Products.</p></main>${link.embedHtml}</body></html>`,
      );
      try {
        const host = await openChat(w, site.url, variant);
        const { page } = host;
        const launcher = page.locator("#agent-edge-launcher");
        await launcher.waitFor();
        expect(await hostPageFindings(page), `${variant.name}: closed`).toEqual([]);
        await launcher.click();
        const frame = page.frameLocator('iframe[title="Chat"]');
        await frame.locator("#messages .message").first().waitFor();
        const chatFrame = page.frames().find((f) => f.url().includes("/chat"));
        if (!chatFrame) throw new Error("no chat frame");
        await chatFrame.waitForFunction(() => document.documentElement.dataset.state === "open");
        expect(await hostPageFindings(page), `${variant.name}: open`).toEqual([]);
        expect(await axeFindings(chatFrame), `${variant.name}: the chat inside`).toEqual([]);
        await screenshot(host, "9-widget-open");
        expect(host.problems).toEqual([]);
        await closeChat(host);
      } finally {
        await site.close();
      }
    }
  });
});
