/**
 * A widget channel's allowed sites in Chromium (docs/widget.md#allowed-sites,
 * docs/security.md#chat-embedding): a site the channel allows gets the launcher and the chat; a
 * site it does not gets no launcher (one console warning says why), and the browser refuses to
 * frame the chat there, whether the channel's own frame, the hosted page, or a channel that allows
 * any site holding the restricted channel's link (its address spelt either way); a channel that
 * allows any site works anywhere.
 * axe-core on the host page and in the chat. Screenshots go to test-results/browser/chat-sites-*.png.
 */
import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  axeFindings,
  type ChatWorld,
  createAgent,
  createLink,
  hostPageFindings,
  openChat,
  screenshot,
  setUpChatWorld,
  VARIANTS,
  type Variant,
} from "./chat-harness";
import { startThirdPartySite } from "./third-party-site";
import { chatFrame, closeHost, type Host, hostPage, launcher } from "./widget-host";

const world = setUpChatWorld();

async function allowOnly(w: ChatWorld, flowId: string, channelId: string, origins: string[]) {
  const res = await w.api("PATCH", `/v1/manage/agents/${flowId}/channels/${channelId}`, {
    token: w.demo.memberToken,
    body: { allowedOrigins: origins },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.json.allowedOrigins).toEqual(origins);
}

/** A second widget channel of the agent (allowing any site). */
async function addChannel(w: ChatWorld, flowId: string): Promise<string> {
  const res = await w.api("POST", `/v1/manage/agents/${flowId}/channels`, {
    token: w.demo.memberToken,
    body: { type: "widget", name: "Anywhere" },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

async function linkStatus(w: ChatWorld, id: string): Promise<string> {
  const res = await w.api("GET", `/v1/widget/launches/${id}`, { token: w.demo.widgetKey });
  return res.json.status;
}

/** Adds an iframe of `src` to the page and gives its frame once it has loaded (or was refused). */
async function frameOf(page: Page, src: string, title: string): Promise<Frame> {
  await page.evaluate(
    ({ url, name }) =>
      new Promise<void>((resolve) => {
        const frame = document.createElement("iframe");
        frame.title = name;
        frame.addEventListener("load", () => resolve(), { once: true });
        frame.src = url;
        document.body.append(frame);
      }),
    { url: src, name: title },
  );
  const frame = await (
    await page.locator(`iframe[title="${title}"]`).elementHandle()
  )?.contentFrame();
  if (!frame) throw new Error(`no frame for ${src}`);
  return frame;
}

/** A customer's page on a site of its own, with the widget's console warnings (`[agent-edge] …`). */
type Site = Host & { warnings: string[] };

/**
 * Serves `html` on a site of its own and opens it in the variant's look, after `before` (given
 * the site's origin) has run: the origin is known only once the site listens.
 */
async function openSite(
  w: ChatWorld,
  html: string,
  variant: Variant,
  before: (origin: string) => Promise<void> = async () => {},
): Promise<Site> {
  const site = await startThirdPartySite(html);
  const warnings: string[] = [];
  try {
    await before(new URL(site.url).origin);
    const chat = await openChat(w, site.url, variant, async (page) => {
      page.on("console", (message) => {
        // The widget's own; Chromium's warnings about early postMessage calls are not these tests'.
        if (message.type() === "warning" && message.text().startsWith("[agent-edge]")) {
          warnings.push(message.text());
        }
      });
    });
    return { ...chat, site, warnings };
  } catch (error) {
    await site.close();
    throw error;
  }
}

describe("a widget channel's allowed sites", () => {
  it("an allowed site gets the launcher and the chat", async () => {
    const w = world();
    const agent = await createAgent(w, { name: "Shop helper", greeting: "Hello from the shop!" });
    for (const variant of VARIANTS) {
      const link = await createLink(w, { ...agent, parameters: {} });
      const host = await openSite(w, hostPage(link.embedHtml), variant, (origin) =>
        allowOnly(w, agent.flowId, agent.channelId, [origin, "https://shop.example.com"]),
      );
      try {
        await launcher(host.page).click();
        const frame = await chatFrame(host.page);
        await frame
          .locator("#messages .message.agent", { hasText: "Hello from the shop!" })
          .waitFor();
        expect(new URL(frame.url()).pathname).toBe(`/chat/embed/${agent.channelId}`);
        expect(await hostPageFindings(host.page), `${variant.name}: host`).toEqual([]);
        expect(await axeFindings(frame), `${variant.name}: the chat inside`).toEqual([]);
        await screenshot(host, "sites-allowed");
        expect(host.problems).toEqual([]);
        expect(host.warnings).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });

  it("a site the channel does not allow gets no launcher and cannot frame the chat", async () => {
    const w = world();
    const agent = await createAgent(w, { name: "Members only", greeting: "Hello, member!" });
    await allowOnly(w, agent.flowId, agent.channelId, ["https://shop.example.com"]);
    // A channel of the same agent that allows any site.
    const anywhere = await addChannel(w, agent.flowId);
    const link = await createLink(w, { ...agent, parameters: {} });
    const base = w.server.base;
    for (const variant of [VARIANTS[0], VARIANTS[3]] as Variant[]) {
      const host = await openSite(w, hostPage(link.embedHtml), variant);
      const { page } = host;
      try {
        const origin = new URL(host.site.url).origin;
        await expect
          .poll(() => host.warnings)
          .toEqual([
            `[agent-edge] No chat widget: channel ${agent.channelId} does not allow pages of ${origin}; add this site to its allowedOrigins.`,
          ]);
        expect(await page.locator("agent-edge-widget").count(), "no launcher").toBe(0);
        expect(await page.locator("iframe").count(), "no frame").toBe(0);
        expect(await hostPageFindings(page)).toEqual([]);
        expect(host.problems).toEqual([]);
        await screenshot(host, "sites-refused");

        // Framed by hand, the chat is refused by the browser: the channel's own frame and the
        // hosted page alike.
        const token = `#launch=${link.token}`;
        const own = await frameOf(page, `${base}/chat/embed/${agent.channelId}${token}`, "Own");
        expect(own.url()).toMatch(/^chrome-error:/);
        const hosted = await frameOf(page, `${base}/chat${token}`, "Hosted");
        expect(hosted.url()).toMatch(/^chrome-error:/);
        const refusals = host.problems.filter((problem) => problem.includes("frame-ancestors"));
        expect(refusals, host.problems.join("\n")).toHaveLength(2);
        // The frame of a channel that allows any site opens none of this channel's links.
        const other = await frameOf(page, `${base}/chat/embed/${anywhere}${token}`, "Other");
        // Polled by time: a frame out of view gets no animation frames to poll by.
        await other.waitForFunction(
          () => document.documentElement.dataset.state === "invalid",
          null,
          {
            polling: 100,
          },
        );
        // Nor when its address is spelt otherwise (the server decodes `%63` to `c`).
        const spelt = `${base}/chat/embed/%63${anywhere.slice(1)}${token}`;
        const otherwise = await frameOf(page, spelt, "Spelt otherwise");
        await otherwise.waitForFunction(
          () => document.documentElement.dataset.state === "invalid",
          null,
          { polling: 100 },
        );
        expect(await linkStatus(w, link.id), "never opened").toBe("pending");
      } finally {
        await closeHost(host);
      }
    }
  });

  it("a channel that allows any site works on any site", async () => {
    const w = world();
    for (const variant of [VARIANTS[1], VARIANTS[2]] as Variant[]) {
      const link = await createLink(w);
      const host = await openSite(w, hostPage(link.embedHtml), variant);
      try {
        await launcher(host.page).click();
        const frame = await chatFrame(host.page);
        await frame.locator("#messages .message").first().waitFor();
        expect(new URL(frame.url()).pathname).toBe(`/chat/embed/${w.demo.channelId}`);
        expect(await linkStatus(w, link.id)).toBe("active");
        expect(await hostPageFindings(host.page)).toEqual([]);
        expect(host.problems).toEqual([]);
        expect(host.warnings).toEqual([]);
      } finally {
        await closeHost(host);
      }
    }
  });
});
