/**
 * The widget's launcher on a customer's page (docs/widget.md), at desktop and 375 px, light and
 * dark, with axe-core on the host page (its own `region` finding aside) and in the chat: the
 * unread badge (item 11 of issue 15); the teaser (item 12); the options and `window.AgentEdge`
 * (item 13). Screenshots go to test-results/browser/chat-widget-*.png.
 */
import { describe, expect, it } from "vitest";
import {
  axeFindings,
  createAgent,
  createLink,
  hostPageFindings,
  screenshot,
  seedMessages,
  setUpChatWorld,
  VARIANTS,
} from "./chat-harness";
import { addWidget, chatFrame, closeHost, hostPage, launcher, openHost } from "./widget-host";

const world = setUpChatWorld();

/** What the customer's page sees of the widget, and what the options test keeps on `window`. */
type PageWindow = {
  AgentEdge: {
    open(): void;
    close(): void;
    on(event: "message", listener: (message: unknown) => void): () => void;
  };
  heard: unknown[];
  stop: () => void;
};

describe("the widget's launcher", () => {
  it("11. a reply that comes while the widget is closed shows an unread badge; the title stays", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const host = await openHost(w, hostPage(link.embedHtml), variant);
      const { page } = host;
      // What Chromium itself logs in the customer's console (a postMessage to the frame before
      // the chat's origin is in it would be "The target origin provided … does not match").
      const logged: string[] = [];
      const cdp = await page.context().newCDPSession(page);
      cdp.on("Log.entryAdded", ({ entry }) => logged.push(`[${entry.level}] ${entry.text}`));
      page.on("console", (message) => logged.push(`[${message.type()}] ${message.text()}`));
      await cdp.send("Log.enable");
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
        expect(logged.filter((line) => /postMessage|target origin/i.test(line))).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });

  it("12. the teaser shows an initiator's greeting beside the launcher, dismissible, remembered per link", async () => {
    const w = world();
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
        // What is remembered, and when nothing shows, does not change with the look: each such
        // check waits 1.5 s for something not to happen, so it runs in the first look only.
        if (variant !== VARIANTS[0]) {
          expect(host.problems).toEqual([]);
          continue;
        }

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

  it('13. options by data attributes and window.AgentEdge open, close and on("message")', async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const host = await openHost(w, hostPage(""), variant);
      const { page } = host;
      const warnings: string[] = [];
      page.on("console", (m) => void (m.type() === "warning" && warnings.push(m.text())));
      const panel = page.locator("#agent-edge-panel");
      try {
        await addWidget(page, link.embedHtml, {
          position: "bottom-left",
          offset: "32 48",
          zIndex: "1000",
          accent: "#0f766e",
          label: "Ask us",
          open: "true",
        });
        const frame = await chatFrame(page);
        expect(await panel.isVisible(), "data-open").toBe(true);
        const look = await launcher(page).evaluate((node) => {
          const box = node.getBoundingClientRect();
          const style = getComputedStyle(node);
          return {
            left: box.left,
            bottom: innerHeight - box.bottom,
            z: style.zIndex,
            background: style.backgroundColor,
            color: style.color,
            text: node.textContent,
            name: node.getAttribute("aria-label"),
          };
        });
        expect(look).toEqual({
          left: 32,
          bottom: 48,
          z: "1000",
          background: "rgb(15, 118, 110)",
          color: "rgb(255, 255, 255)",
          text: "Ask us",
          name: "Ask us",
        });
        const panelBox = await panel.boundingBox();
        // A phone gets the whole screen; elsewhere the panel stands above the launcher, on its side.
        expect(panelBox?.x).toBe(variant.viewport.width > 480 ? 32 : 0);
        expect(await hostPageFindings(page), `${variant.name}: open`).toEqual([]);
        expect(await axeFindings(frame), `${variant.name}: the chat inside`).toEqual([]);
        await screenshot(host, "widget-13-options-open");

        // The page's script: messages heard from now on (not the greeting), until it stops.
        await page.evaluate(() => {
          const heard: unknown[] = [];
          Object.assign(window, { heard });
          const api = (window as unknown as PageWindow).AgentEdge;
          Object.assign(window, { stop: api.on("message", (m: unknown) => heard.push(m)) });
        });
        const heard = () => page.evaluate(() => (window as unknown as PageWindow).heard);
        await frame.locator("#message-input").fill("Hello from the options test");
        await frame.locator("#message-input").press("Enter");
        await expect.poll(heard).toHaveLength(2);
        expect(await heard()).toEqual([
          { role: "person", text: "Hello from the options test", at: expect.any(String) },
          {
            role: "agent",
            text: expect.stringContaining("Hello from the options test"),
            at: expect.any(String),
          },
        ]);
        await page.evaluate(() => (window as unknown as PageWindow).stop());
        await page.evaluate(() => (window as unknown as PageWindow).AgentEdge.close());
        await panel.waitFor({ state: "hidden" });
        await seedMessages(w, link.token, ["Not heard by a stopped listener"]);
        await page.locator("#agent-edge-launcher .badge").waitFor();
        expect(await heard()).toHaveLength(2);
        await screenshot(host, "widget-13-options-closed");
        await page.evaluate(() => (window as unknown as PageWindow).AgentEdge.open());
        await panel.waitFor();
        expect(host.problems).toEqual([]);

        // A value the widget cannot use is named once, and its default is used.
        await page.reload({ waitUntil: "domcontentloaded" });
        await addWidget(page, link.embedHtml, { accent: "not-a-colour", position: "top" });
        expect(
          await launcher(page).evaluate((node) => getComputedStyle(node).backgroundColor),
        ).toBe("rgb(29, 78, 216)");
        expect(warnings.filter((text) => text.includes("data-accent"))).toEqual([
          '[agent-edge] widget.js: data-accent="not-a-colour" is not a CSS colour, such as #0f766e; the default is used.',
        ]);
        expect(warnings.some((text) => text.includes('data-position="top"'))).toBe(true);
      } finally {
        await closeHost(host);
      }
    }
  });
});
