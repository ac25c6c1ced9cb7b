/**
 * What the widget's browser specs (widget-*.spec.ts, docs/widget.md) share with the chat's
 * harness: a customer's page on another origin holding the embed tag, opened in one of the four
 * looks, with the widget's parts found through its open shadow root and the chat in its iframe.
 */
import type { Frame, Locator, Page } from "playwright-core";
import { type ChatPage, type ChatWorld, openChat, type Variant } from "./chat-harness";
import { startThirdPartySite, type ThirdPartySite } from "./third-party-site";

/** The customer's page: a title, landmarks, enough text to scroll, and `body` (the embed tag). */
export function hostPage(body: string, head = ""): string {
  const filler = Array.from(
    { length: 40 },
    (_, i) => `<p>Paragraph ${i + 1} of the customer's own page.</p>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><title>Shop</title><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,">${head}</head><body><main><h1>Customer site</h1>${filler}</main>${body}</body></html>`;
}

/** An open customer's page with the widget, and its site (closed by {@link closeHost}). */
export type Host = ChatPage & { site: ThirdPartySite };

/** Serves `html` on its own origin and opens it in the variant's look. */
export async function openHost(world: ChatWorld, html: string, variant: Variant): Promise<Host> {
  const site = await startThirdPartySite(html);
  try {
    return { ...(await openChat(world, site.url, variant)), site };
  } catch (error) {
    await site.close();
    throw error;
  }
}

/** Closes the page and its site. */
export async function closeHost(host: Host): Promise<void> {
  await host.page.context().close();
  await host.site.close();
}

/** The launcher (CSS locators pierce the open shadow root). */
export const launcher = (page: Page): Locator => page.locator("#agent-edge-launcher");

/** The chat page in the widget's iframe, once it shows an open conversation. */
export async function chatFrame(page: Page): Promise<Frame> {
  const iframe = page.locator('iframe[title="Chat"]');
  await iframe.waitFor({ state: "attached" });
  const frame = await (await iframe.elementHandle())?.contentFrame();
  if (!frame) throw new Error("the widget's iframe has no frame");
  // The frame may still hold its first, empty document.
  await frame.waitForFunction(() => document.documentElement?.dataset.state === "open");
  return frame;
}

/**
 * Adds the embed tag `embedHtml` to the open page, with `extra` data attributes (e.g.
 * `{ teaser: "true" }`), as a page that inserts it from its own script would; the launcher is
 * there when this resolves.
 */
export async function addWidget(
  page: Page,
  embedHtml: string,
  extra: Record<string, string> = {},
): Promise<void> {
  await page.evaluate(
    ({ html, data }) => {
      const parsed = document.createElement("template");
      parsed.innerHTML = html;
      const tag = parsed.content.querySelector("script");
      if (!tag) throw new Error(`no script tag in ${html}`);
      // A parsed script never runs; a created one with the same attributes does.
      const script = document.createElement("script");
      for (const { name, value } of tag.attributes) script.setAttribute(name, value);
      for (const [name, value] of Object.entries(data)) script.dataset[name] = value;
      document.body.append(script);
    },
    { html: embedHtml, data: extra },
  );
  await launcher(page).waitFor();
}
