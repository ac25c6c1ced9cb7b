/**
 * An agent message's Markdown in the dashboard (docs/dashboard.md#screens, docs/chat.md#formatting):
 * the API's blocks (as src/conversations/markdown.ts makes them) rendered as the chat renders
 * them, text only, links only to http(s) or mailto.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server.edge";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../src/dashboard/api";
import { RichText } from "../../src/dashboard/ui/RichText";

const render = (blocks: Schemas["ChatBlock"][]) =>
  renderToStaticMarkup(createElement(RichText, { blocks }));

describe("RichText", () => {
  it("renders bold, italic, code, lists and numbered lists", () => {
    const html = render([
      {
        type: "p",
        spans: [
          { text: "Your " },
          { text: "order", strong: true },
          { text: " is " },
          { text: "on its way", em: true },
          { text: ": " },
          { text: "A-1", code: true },
        ],
      },
      {
        type: "list",
        ordered: false,
        start: 1,
        items: [
          [{ type: "p", spans: [{ text: "one" }] }],
          [{ type: "p", spans: [{ text: "two" }] }],
        ],
      },
      {
        type: "list",
        ordered: true,
        start: 3,
        items: [[{ type: "p", spans: [{ text: "three" }] }]],
      },
    ]);
    expect(html).toBe(
      '<p dir="auto">Your <strong>order</strong> is <em>on its way</em>: <code>A-1</code></p>' +
        '<ul><li dir="auto"><p dir="auto">one</p></li><li dir="auto"><p dir="auto">two</p></li></ul>' +
        '<ol start="3"><li dir="auto"><p dir="auto">three</p></li></ol>',
    );
  });

  it("keeps HTML in a message as text, and links only to http(s) or mailto", () => {
    const html = render([
      {
        type: "p",
        spans: [
          { text: 'Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> ' },
          { text: "ok", href: "https://example.com" },
          { text: " " },
          { text: "bad", href: "javascript:alert(3)" },
        ],
      },
    ]);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>',
    );
    expect(html).not.toContain("javascript:");
  });
});
