/**
 * The person's side of a link in a browser spec (docs/api/conversations.md): the hosted chat page opened from a
 * link's URL, one message sent, and the agent's answer, which (the scripted brain) quotes it.
 */
import type { Page } from "playwright-core";

/**
 * Opens the link's chat `url` on `page`, waits until the conversation is open, sends `message`
 * and waits for the agent's answer naming it. @throws a timeout when the page never opens
 */
export async function chatOnLink(page: Page, url: string, message: string): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => document.documentElement.dataset.state === "open");
  await page.locator("#message-input").fill(message);
  await page.locator("#message-input").press("Enter");
  await page.locator("#messages li.message.agent:not(.draft)", { hasText: message }).waitFor();
}
