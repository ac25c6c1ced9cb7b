/**
 * The widget and the customer's page (docs/widget.md), at desktop and 375 px, light and dark, with
 * axe-core on the host page (its own `region` finding aside) and in the chat: the channel's
 * snippet pasted without a token (item 14 of issue 15); on a phone, a full-screen modal dialog with
 * one header, and on a desktop a panel with the same header (item 15). Screenshots go to
 * test-results/browser/chat-widget-*.png.
 */
import { describe, expect, it } from "vitest";
import {
  axeFindings,
  createAgent,
  createLink,
  hostPageFindings,
  screenshot,
  setUpChatWorld,
  VARIANTS,
} from "./chat-harness";
import { chatFrame, closeHost, hostPage, launcher, openHost } from "./widget-host";

const world = setUpChatWorld();

describe("the widget on the customer's page", () => {
  it("14. the channel's snippet is a template; without a usable token the widget says why, once", async () => {
    const w = world();
    const agent = await createAgent(w, { name: "Shop assistant" });
    const channels = await w.api("GET", `/v1/manage/agents/${agent.flowId}/channels`, {
      token: w.demo.memberToken,
    });
    const snippet: string = channels.json.data[0].snippet;
    expect(snippet).toContain('data-launch="{{LAUNCH_TOKEN}}"');
    expect(snippet).toMatch(/<!--.*POST \/v1\/widget\/launches.*-->/);
    const tagOnly = snippet.replace(/<!--.*?-->\s*/s, "").replace(/ data-launch="[^"]*"/, "");
    for (const variant of VARIANTS) {
      for (const [body, said] of [
        // Pasted twice, as is: one error, not two.
        [snippet + snippet, 'has data-launch="{{LAUNCH_TOKEN}}", not a launch token'],
        [tagOnly, "has no data-launch attribute"],
      ] as const) {
        const host = await openHost(w, hostPage(body), variant);
        try {
          await host.page.waitForLoadState("load");
          await host.page.waitForTimeout(500);
          expect(host.problems).toEqual([
            `[console] [agent-edge] No chat widget: the widget.js tag ${said}. Your server gets a token for each person from POST /v1/widget/launches (with your widget key) and puts it in data-launch; the answer's embedHtml is the whole tag with it.`,
          ]);
          expect(await host.page.locator("agent-edge-widget").count(), "nothing drawn").toBe(0);
          expect(await host.page.locator("iframe").count()).toBe(0);
          expect(await hostPageFindings(host.page)).toEqual([]);
          await screenshot(host, "widget-14-no-token");
        } finally {
          await closeHost(host);
        }
      }

      // The template filled in with a link's token is the working tag.
      const link = await createLink(w, { ...agent, parameters: {} });
      const host = await openHost(
        w,
        hostPage(snippet.replaceAll("{{LAUNCH_TOKEN}}", link.token)),
        variant,
      );
      try {
        await launcher(host.page).click();
        await chatFrame(host.page);
        expect(host.problems).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });

  it("15. on a phone the open widget is a full-screen modal dialog; one header everywhere", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const phone = variant.viewport.width <= 480;
      const link = await createLink(w);
      const host = await openHost(w, hostPage(link.embedHtml), variant);
      const { page } = host;
      const panel = page.locator("#agent-edge-panel");
      const scrollY = () => page.evaluate(() => window.scrollY);
      const rootStyle = () => page.evaluate(() => document.documentElement.getAttribute("style"));
      try {
        await page.evaluate(() => window.scrollTo(0, 300));
        await launcher(page).click();
        const frame = await chatFrame(page);
        await frame.locator("#messages .message").first().waitFor();

        // One header: the chat's, with the close button; nothing of ours above it.
        const [panelBox, iframeBox] = [
          await panel.boundingBox(),
          await page.locator('iframe[title="Chat"]').boundingBox(),
        ];
        expect(iframeBox?.y, "the chat starts at the panel's top").toBe(
          (panelBox?.y ?? 0) + (phone ? 0 : 1),
        );
        expect(
          await frame.locator("header").getByRole("button", { name: "Close chat" }).count(),
        ).toBe(1);
        expect(await panel.getByRole("button").count(), "no button of the widget's own").toBe(0);
        expect(await panel.getAttribute("aria-modal")).toBe(phone ? "true" : null);
        if (phone) {
          expect(panelBox).toEqual({ x: 0, y: 0, ...variant.viewport });
        }
        expect(await hostPageFindings(page), `${variant.name}: open`).toEqual([]);
        expect(await axeFindings(frame), `${variant.name}: the chat inside`).toEqual([]);
        await screenshot(host, "widget-15-open");

        // The page behind stays where it was: a wheel over the header and over the list.
        for (const selector of ["header", "#messages"]) {
          const box = await frame.locator(selector).boundingBox();
          await page.mouse.move((box?.x ?? 0) + 20, (box?.y ?? 0) + 10);
          for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 500);
        }
        await page.waitForTimeout(300);
        if (phone) expect(await scrollY(), "the page behind the modal").toBe(300);

        // Tab and Shift+Tab go round inside the modal chat; on a desktop Tab may leave it.
        const inChat = () =>
          page.evaluate(
            () =>
              document.querySelector("agent-edge-widget")?.shadowRoot?.activeElement?.tagName ===
              "IFRAME",
          );
        await frame.locator("#message-input").focus();
        const stays: boolean[] = [];
        for (const key of ["Tab", "Shift+Tab"]) {
          for (let i = 0; i < 8; i++) {
            await page.keyboard.press(key);
            stays.push(await inChat());
          }
          await frame.locator("#message-input").focus();
        }
        if (phone) expect(stays.every(Boolean), `${variant.name}: focus left the chat`).toBe(true);
        else
          expect(
            stays.some((inside) => !inside),
            `${variant.name}: a trap on a desktop`,
          ).toBe(true);

        // Escape closes, and the page gets back its own scrolling, untouched.
        await frame.locator("#message-input").focus();
        await page.keyboard.press("Escape");
        await panel.waitFor({ state: "hidden" });
        expect(await rootStyle()).toBeNull();
        await page.mouse.wheel(0, 200);
        await expect.poll(scrollY).toBeGreaterThan(300);

        // The header's close button closes too.
        await launcher(page).click();
        await frame.getByRole("button", { name: "Close chat" }).focus();
        await page.keyboard.press("Enter");
        await panel.waitFor({ state: "hidden" });
        expect(await rootStyle(), `${variant.name}: the root's style after Close chat`).toBeNull();
        expect(host.problems).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });
});
