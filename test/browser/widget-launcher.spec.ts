/**
 * The widget's launcher on a customer's page (docs/widget.md), at desktop and 375 px, light and
 * dark, with axe-core on the host page (its own `region` finding aside) and in the chat: the
 * unread badge (item 11 of issue 15); the teaser (item 12). Screenshots go to test-results/browser/chat-widget-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeFindings,
  type ChatWorld,
  createAgent,
  createLink,
  hostPageFindings,
  screenshot,
  seedMessages,
  startChatWorld,
  stopChatWorld,
  VARIANTS,
} from "./chat-harness";
import { addWidget, chatFrame, closeHost, hostPage, launcher, openHost } from "./widget-host";

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

describe("the widget's launcher", () => {
  it("11. a reply that comes while the widget is closed shows an unread badge; the title stays", async () => {
    const w = need(world, "world");
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const host = await openHost(w, hostPage(link.embedHtml), variant);
      const { page } = host;
      try {
        const badge = page.locator("#agent-edge-launcher .badge");
        await launcher(page).click();
        const frame = await chatFrame(page);
        await frame.locator("#messages .message.agent").first().waitFor();
        expect(await badge.isVisible(), "the greeting, read in the open widget").toBe(false);
        await frame.locator("#message-input").press("Escape");
        await page.locator("#agent-edge-panel").waitFor({ state: "hidden" });

        // Another tab of the conversation asks; the agent's reply arrives here while closed.
        await seedMessages(w, link.token, ["Asked from my phone"]);
        await badge.waitFor();
        expect(await badge.textContent()).toBe("1");
        expect(await launcher(page).getAttribute("aria-label")).toBe("Open chat, 1 unread message");
        await seedMessages(w, link.token, ["And again"]);
        await expect.poll(() => badge.textContent()).toBe("2");
        expect(await page.getByRole("status").textContent()).toContain("2 unread messages");
        expect(await page.title(), "the host page's title").toBe("Shop");
        expect(await hostPageFindings(page), `${variant.name}: with the badge`).toEqual([]);
        await screenshot(host, "widget-11-unread");

        await launcher(page).click();
        await frame.locator("#messages .message.agent", { hasText: "And again" }).waitFor();
        expect(await badge.isVisible(), "read once opened").toBe(false);
        expect(await launcher(page).getAttribute("aria-label")).toBe("Open chat");
        expect(await axeFindings(frame), `${variant.name}: the chat inside`).toEqual([]);
        expect(await page.title()).toBe("Shop");
        expect(host.problems).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });

  it("12. the teaser shows an initiator's greeting beside the launcher, dismissible, remembered per link", async () => {
    const w = need(world, "world");
    const agent = await createAgent(w, {
      name: "Plan helper",
      greeting: "Hi {{participant.name}}! Questions about your plan? Ask me here.",
    });
    for (const variant of VARIANTS) {
      const [first, second] = [
        await createLink(w, { ...agent, parameters: {} }),
        await createLink(w, { ...agent, parameters: {} }),
      ];
      const host = await openHost(w, hostPage(""), variant);
      const { page } = host;
      const teaser = page.locator("#agent-edge-teaser");
      const reload = () => page.reload({ waitUntil: "domcontentloaded" });
      try {
        await addWidget(page, first.embedHtml, { teaser: "true" });
        await teaser.waitFor();
        expect(await teaser.textContent()).toContain("Hi Ada! Questions about your plan?");
        expect(await page.locator("#agent-edge-panel").isVisible(), "the chat stays closed").toBe(
          false,
        );
        expect(await hostPageFindings(page), `${variant.name}: the teaser`).toEqual([]);
        await screenshot(host, "widget-12-teaser");
        await page.getByRole("button", { name: "Dismiss message" }).click();
        await teaser.waitFor({ state: "hidden" });
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("agent-edge-widget");

        // Dismissed stays dismissed for this link: nothing shown, nothing loaded.
        await reload();
        await addWidget(page, first.embedHtml, { teaser: "true" });
        await page.waitForTimeout(1_500);
        expect(await teaser.isVisible(), "dismissed, after a reload").toBe(false);
        expect(await page.locator('iframe[title="Chat"]').count()).toBe(0);

        // Another link gets its own teaser; opening the chat from it counts as seen.
        await reload();
        await addWidget(page, second.embedHtml, { teaser: "true" });
        await teaser.waitFor();
        await teaser.getByRole("button", { name: /Hi Ada!/ }).click();
        const frame = await chatFrame(page);
        await frame.locator("#messages .message.agent", { hasText: "Hi Ada!" }).waitFor();
        expect(await teaser.isVisible()).toBe(false);
        await reload();
        await addWidget(page, second.embedHtml, { teaser: "true" });
        await page.waitForTimeout(1_500);
        expect(await teaser.isVisible(), "seen in the chat, after a reload").toBe(false);

        // Without data-teaser the greeting waits in the chat.
        await reload();
        await addWidget(page, (await createLink(w, { ...agent, parameters: {} })).embedHtml);
        await page.waitForTimeout(1_500);
        expect(await teaser.isVisible(), "no data-teaser").toBe(false);
        expect(host.problems).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });
});
