/**
 * The widget's isolation on a customer's page (docs/widget.md#isolation, item 16 of issue 15), at
 * desktop and 375 px, light and dark: a hostile stylesheet changes nothing of the widget (its
 * launcher, label, teaser, panel and iframe measure and compute the same as on a plain page), and
 * the widget changes nothing of the page (computed styles, style sheets, inline styles, title and
 * globals other than `AgentEdge`), before, while and after it is open. Screenshots go to
 * test-results/browser/chat-widget-16-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createLink, hostPageFindings, screenshot, setUpChatWorld, VARIANTS } from "./chat-harness";
import { addWidget, chatFrame, closeHost, hostPage, launcher, openHost } from "./widget-host";

const world = setUpChatWorld();

/** Rules a careless or hostile page may hold: universal, by tag, by our names, with !important. */
const HOSTILE = `<style>
*, *::before, *::after { box-sizing: content-box !important; letter-spacing: 3px !important;
  font-family: "Comic Sans MS", cursive !important; text-transform: uppercase !important; }
html { font-size: 30px !important; line-height: 3 !important; color: #f0f !important; }
body { font: italic 40px serif !important; cursor: crosshair !important; }
div, span, button, iframe, svg, path, p, aside, section {
  position: static !important; width: 10px !important; height: 10px !important;
  margin: 30px !important; padding: 30px !important; border: 8px dashed lime !important;
  background: yellow !important; opacity: 0.5 !important; transform: rotate(3deg) !important; }
[hidden] { display: block !important; }
[role="dialog"], [aria-modal], [id^="agent-edge"], .launcher, .panel, .teaser, .badge {
  display: none !important; }
agent-edge-widget, body > * { display: block !important; position: absolute !important;
  left: -9999px !important; opacity: 0 !important; filter: blur(4px) !important;
  transform: scale(0.2) !important; z-index: -1 !important; pointer-events: none !important;
  contain: strict !important; visibility: hidden !important; }
:root { --accent: red; --bg: red; --fg: red; }
</style>`;

/** The widget's parts as laid out and computed, through its open shadow root. */
async function widgetLook(page: Page) {
  // Away from the launcher, and no transitions: hover states would differ by the moment.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.mouse.move(1, 1);
  return page.evaluate(() => {
    const root = document.querySelector("agent-edge-widget")?.shadowRoot;
    const keys = [
      "display",
      "visibility",
      "opacity",
      "transform",
      "filter",
      "backgroundColor",
      "color",
      "fontFamily",
      "fontSize",
      "fontStyle",
      "letterSpacing",
      "textTransform",
      "lineHeight",
      "borderTopWidth",
      "borderTopStyle",
      "paddingTop",
      "boxSizing",
      "cursor",
      "zIndex",
    ] as const;
    const look: Record<string, unknown> = {};
    for (const selector of [
      ".launcher",
      ".launcher span:not(.badge)",
      ".teaser",
      ".say",
      ".panel",
      "iframe",
    ]) {
      const node = root?.querySelector(selector);
      if (!node) continue;
      const style = getComputedStyle(node);
      const { x, y, width, height } = node.getBoundingClientRect();
      look[selector] = {
        box: [x, y, width, height],
        ...Object.fromEntries(keys.map((k) => [k, style[k]])),
      };
    }
    return look;
  });
}

/** The page's own state: computed styles of its elements, sheets, inline styles, title, globals. */
function pageState(page: Page) {
  return page.evaluate(() => {
    const styles = ["html", "body", "main", "h1", "p"].map((selector) => {
      const style = getComputedStyle(document.querySelector(selector) as Element);
      return [...style].map((name) => `${name}: ${style.getPropertyValue(name)}`).join("; ");
    });
    return {
      styles,
      sheets: document.styleSheets.length,
      adopted: document.adoptedStyleSheets.length,
      htmlStyle: document.documentElement.getAttribute("style"),
      bodyStyle: document.body.getAttribute("style"),
      title: document.title,
      scrollY: window.scrollY,
      globals: Object.keys(window)
        .filter((key) => /agent|edge/i.test(key))
        .sort(),
    };
  });
}

describe("the widget's isolation", () => {
  it("16. a hostile stylesheet changes nothing of the widget, and the widget nothing of the page", async () => {
    const w = world();
    const options = { label: "Ask us", teaser: "true" };
    for (const variant of VARIANTS) {
      const looks: Record<string, unknown>[] = [];
      for (const head of ["", HOSTILE]) {
        const link = await createLink(w);
        const host = await openHost(w, hostPage("", head), variant);
        const { page } = host;
        try {
          await page.evaluate(() => window.scrollTo(0, 200));
          const before = await pageState(page);
          await addWidget(page, link.embedHtml, options);
          await page.locator("#agent-edge-teaser").waitFor();
          const closed = await widgetLook(page);
          if (head) await screenshot(host, "widget-16-hostile-closed");
          await launcher(page).click();
          await chatFrame(page);
          const open = await widgetLook(page);
          // The hostile page's own text fails contrast; nothing of the widget may.
          const findings = await hostPageFindings(page);
          expect(
            head ? findings.filter((finding) => finding.includes("agent-edge")) : findings,
            `${variant.name}: open`,
          ).toEqual([]);
          if (head) await screenshot(host, "widget-16-hostile-open");
          looks.push({ closed, open });
          await page.keyboard.press("Escape");
          await page.locator("#agent-edge-panel").waitFor({ state: "hidden" });

          // Nothing of ours on the page but the element that holds us and `AgentEdge`.
          const after = await pageState(page);
          expect({ ...after, globals: [] }).toEqual({ ...before, globals: [] });
          expect(after.globals.filter((key) => !before.globals.includes(key))).toEqual([
            "AgentEdge",
            "__agentEdgeWidgetTokens",
          ]);
          expect(host.problems).toEqual([]);
        } finally {
          await closeHost(host);
        }
      }
      expect(looks[1], `${variant.name}: the widget under the hostile stylesheet`).toEqual(
        looks[0],
      );
    }
  });
});
