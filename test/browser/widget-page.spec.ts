/**
 * The widget and the customer's page (docs/widget.md), at desktop and 375 px, light and dark, with
 * axe-core on the host page (its own `region` finding aside) and in the chat: the channel's
 * snippet pasted without a token (item 14 of issue 15). Screenshots go to
 * test-results/browser/chat-widget-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatWorld,
  createAgent,
  createLink,
  hostPageFindings,
  screenshot,
  startChatWorld,
  stopChatWorld,
  VARIANTS,
} from "./chat-harness";
import { chatFrame, closeHost, hostPage, launcher, openHost } from "./widget-host";

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

describe("the widget on the customer's page", () => {
  it("14. the channel's snippet is a template; without a usable token the widget says why, once", async () => {
    const w = need(world, "world");
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
});
