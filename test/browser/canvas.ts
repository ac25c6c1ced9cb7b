/**
 * The workflow editor's canvas in a browser spec (docs/dashboard.md#workflow-editor): a node by
 * its label, the side panel, and dragging with the mouse as a person would (React Flow listens to
 * pointer moves, so a drag needs steps, not a jump), and whether an element is in the window.
 */
import type { Locator, Page } from "playwright-core";
import { need } from "./dashboard-page";

/** The canvas node whose label is `name`. */
export const canvasNode = (page: Page, name: string): Locator =>
  page
    .locator(".react-flow__node")
    .filter({ has: page.locator(".wf-node-name", { hasText: name }) });

/** The side panel, titled after the selected node. */
export const panel = (page: Page): Locator => page.locator(".node-panel");

/** Drags from one element's centre to another's with the mouse, in steps. */
export async function dragBetween(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = need((await from.boundingBox()) ?? undefined, "the drag's start");
  const b = need((await to.boundingBox()) ?? undefined, "the drag's end");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

/** Fails unless `element` lies wholly inside a `window`-sized viewport, the page not scrolled. */
export async function within(
  element: Locator,
  window: { width: number; height: number },
): Promise<void> {
  const box = need((await element.boundingBox()) ?? undefined, "the element's box");
  const scrolled = await element.page().evaluate(() => globalThis.scrollY);
  const inside =
    scrolled === 0 &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= window.width &&
    box.y + box.height <= window.height;
  if (!inside) throw new Error(`Not in the window: ${JSON.stringify({ ...box, scrolled })}`);
}
