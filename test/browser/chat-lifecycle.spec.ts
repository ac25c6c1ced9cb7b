/**
 * The chat's lifecycle in a real browser (docs/chat.md), at desktop and 375 px, light and dark:
 * End chat asks first in an accessible modal dialog; a dropped socket says "Reconnecting…" in a
 * status region, retries at most 5 s apart and at once when the tab becomes visible or the network
 * comes back, keeping typed text and giving focus back; a link that expires while its chat is open
 * switches the open page to the expired state (what the Worker sends then, played on a routed
 * socket; the Worker's side is test/conversations/expiry.test.ts); after the end it asks for a
 * rating, 1 to 5 with a comment (docs/chat.md#rating). Screenshots go to
 * test-results/browser/chat-*.png.
 */
import type { WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  closeChat,
  createLink,
  openChat,
  setUpChatWorld,
  shot,
  VARIANTS,
  waitForState,
} from "./chat-harness";

const world = setUpChatWorld();

describe("the chat's lifecycle", () => {
  it("6. End chat asks first, in a modal dialog; Keep chatting and Escape keep the chat", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      const endChat = page.locator("#end-chat");
      const dialog = page.getByRole("dialog", { name: "End this chat?" });

      await endChat.click();
      await dialog.waitFor();
      expect(await dialog.getAttribute("aria-describedby")).toBe("end-text");
      // Focus starts on the safe choice and stays inside the dialog.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Keep chatting");
      for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
      expect(
        await page.evaluate(() => !!document.activeElement?.closest("#end-dialog")),
        `${variant.name}: focus left the dialog`,
      ).toBe(true);
      await shot(chat, "6-end-dialog");

      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("end-chat");
      await endChat.click();
      await dialog.getByRole("button", { name: "Keep chatting" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe("open");

      await endChat.click();
      await dialog.getByRole("button", { name: "End chat" }).click();
      await waitForState(page, "ended");
      await shot(chat, "6-ended");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("issue 32. after the end the chat asks for a rating: 4 with a comment, then thanks, also after a reload", async () => {
    const w = world();
    // Two looks keep it short: the wide light one and the narrow dark one.
    for (const variant of [VARIANTS[0], VARIANTS[3]].filter((v) => v !== undefined)) {
      const link = await createLink(w);
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      await page.locator("#end-chat").click();
      await page
        .getByRole("dialog", { name: "End this chat?" })
        .getByRole("button", { name: "End chat" })
        .click();
      await waitForState(page, "ended");
      const group = page.getByRole("group", { name: "How was this conversation?" });
      await group.waitFor();
      expect(await group.getByRole("radio").count()).toBe(5);
      // The label is what a pointer meets; the radio inside is what a screen reader names.
      await group.locator('label[for="rating-4"]').click();
      expect(await group.getByRole("radio", { name: "4 out of 5" }).isChecked()).toBe(true);
      await page.getByLabel("Comment (optional)").fill("Quick and clear.");
      await page.waitForTimeout(200); // the buttons' 0.15 s colour transition, for the picture
      await shot(chat, "rating-chosen");
      await page.getByRole("button", { name: "Send rating" }).click();
      const thanks = page.getByText("Thanks for your rating!");
      await thanks.waitFor();
      // Focus went from the removed form to the thanks, which a screen reader then reads.
      expect(await page.evaluate(() => document.activeElement?.className)).toBe("rating-thanks");
      await shot(chat, "rating-thanks");
      await page.reload();
      await waitForState(page, "ended");
      await thanks.waitFor();
      expect(await page.getByRole("radio").count()).toBe(0);
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("8. a dropped socket says Reconnecting…, retries within 5 s, and at once on visible or online", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const sockets: WebSocketRoute[] = [];
      let refuseOpens = false;
      let opens = 0;
      const chat = await openChat(w, link.url, variant, async (page) => {
        await page.clock.install();
        await page.route("**/v1/chat/sessions", async (route) => {
          opens += 1;
          if (refuseOpens) await route.fulfill({ status: 503, body: "{}" });
          else await route.continue();
        });
        await page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
          ws.connectToServer();
          sockets.push(ws);
        });
      });
      const { page } = chat;
      await waitForState(page, "open");
      // Timers move only when the test says so from here on.
      await page.clock.pauseAt(Date.now() + 1_000);
      await page.locator("#message-input").fill("Half-typed question");
      await page.locator("#send").focus();

      const drop = async () => {
        refuseOpens = true;
        for (const ws of sockets.splice(0)) await ws.close({ code: 1012, reason: "restart" });
        await waitForState(page, "reconnecting");
      };
      await drop();
      const notice = page.getByRole("status").filter({ hasText: "Reconnecting…" });
      await notice.waitFor();
      expect(await notice.getAttribute("aria-live")).toBe("polite");

      // Every attempt fails; none is more than 5 s after the one before.
      for (let attempt = 1; attempt <= 6; attempt++) {
        const before = opens;
        await page.clock.runFor(5_000);
        await expect.poll(() => opens, { timeout: 5_000 }).toBeGreaterThan(before);
        // Real time for the page to take the refusal and set its next timer.
        await page.waitForTimeout(250);
      }
      expect(await page.locator("#message-input").inputValue()).toBe("Half-typed question");

      // Back on the tab: at once, without waiting out the backoff.
      refuseOpens = false;
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      await waitForState(page, "open", 5_000);
      expect(await page.locator("#notice").textContent()).toBe("");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("message-input");

      // The network back: at once too.
      await drop();
      refuseOpens = false;
      await page.evaluate(() => window.dispatchEvent(new Event("online")));
      await waitForState(page, "open", 5_000);
      expect(await page.locator("#message-input").inputValue()).toBe("Half-typed question");

      // The look of the state, with time flowing again (axe-core needs its timers).
      await page.clock.resume();
      await drop();
      await notice.waitFor();
      await shot(chat, "8-reconnecting");
      expect(chat.problems.filter((p) => !p.includes("503"))).toEqual([]);
      await closeChat(chat);
    }
  });

  // The Worker's side (the alarm at the expiry sends `expired` and closes with 4411) is
  // test/conversations/expiry.test.ts; a real expiry is at least 5 minutes away, so here the
  // socket is routed and the page is sent exactly what that alarm sends.
  it("7. a link that expires while its chat is open switches the page to expired", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const sockets: WebSocketRoute[] = [];
      const chat = await openChat(w, link.url, variant, (page) =>
        page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
          ws.connectToServer();
          sockets.push(ws);
        }),
      );
      await waitForState(chat.page, "open");
      for (const ws of sockets) {
        ws.send(JSON.stringify({ type: "expired" }));
        await ws.close({ code: 4411, reason: "expired" });
      }
      await waitForState(chat.page, "expired");
      expect(await chat.page.locator("#notice").textContent()).toBe("This link has expired.");
      expect(await chat.page.locator("#message-input").isVisible()).toBe(false);
      // Final: it does not try to reconnect.
      await chat.page.waitForTimeout(1_500);
      expect(sockets).toHaveLength(1);
      await shot(chat, "7-expired");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });
});
