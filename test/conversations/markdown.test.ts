import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown, markdownBlocks, richWire, safeHref } from "../../src/conversations/markdown";

import { seedWorkspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";

// The Worker loads marked on first use (docs/performance.md#start-up); these call it directly.
beforeAll(loadMarkdown);

describe("markdownBlocks (docs/chat.md#formatting)", () => {
  it("keeps paragraphs, bold, italics, inline code and line breaks", () => {
    expect(markdownBlocks("Hi **Ada**, *welcome*.\nUse `npm ci`.\n\nSecond paragraph.")).toEqual([
      {
        type: "p",
        spans: [
          { text: "Hi " },
          { text: "Ada", strong: true },
          { text: ", " },
          { text: "welcome", em: true },
          { text: "." },
          { text: "\n" },
          { text: "Use " },
          { text: "npm ci", code: true },
          { text: "." },
        ],
      },
      { type: "p", spans: [{ text: "Second paragraph." }] },
    ]);
  });

  it("keeps lists, nested and numbered from their start", () => {
    expect(markdownBlocks("- one\n  - inner\n- two\n\n3. third\n4. fourth")).toEqual([
      {
        type: "list",
        ordered: false,
        start: 1,
        items: [
          [
            { type: "p", spans: [{ text: "one" }] },
            {
              type: "list",
              ordered: false,
              start: 1,
              items: [[{ type: "p", spans: [{ text: "inner" }] }]],
            },
          ],
          [{ type: "p", spans: [{ text: "two" }] }],
        ],
      },
      {
        type: "list",
        ordered: true,
        start: 3,
        items: [
          [{ type: "p", spans: [{ text: "third" }] }],
          [{ type: "p", spans: [{ text: "fourth" }] }],
        ],
      },
    ]);
  });

  it("links http(s) and mailto, bare URLs too; any other target stays text", () => {
    const [block] = markdownBlocks(
      "[docs](https://example.com/docs) https://example.com/a [mail](mailto:help@example.com) [js](javascript:alert(1)) [data](data:text/html,x) [rel](/admin) **[bold](http://example.com)**",
    );
    expect(block?.type === "p" && block.spans.filter((span) => span.text.trim())).toEqual([
      { text: "docs", href: "https://example.com/docs" },
      { text: "https://example.com/a", href: "https://example.com/a" },
      { text: "mail", href: "mailto:help@example.com" },
      { text: "js" },
      { text: "data" },
      { text: "rel" },
      { text: "bold", strong: true, href: "http://example.com" },
    ]);
  });

  it("never lets HTML through as anything but its text", () => {
    const blocks = markdownBlocks(
      '<img src=x onerror=alert(1)>\n\n<script>alert(1)</script>\n\nText <b onclick="x">bold?</b> AT&amp;T &lt;b&gt; &#65;',
    );
    const texts = blocks.flatMap((block) =>
      block.type === "p" ? [block.spans.map((span) => span.text).join("")] : [],
    );
    expect(texts).toEqual([
      "<img src=x onerror=alert(1)>",
      "<script>alert(1)</script>",
      'Text <b onclick="x">bold?</b> AT&T <b> A',
    ]);
    expect(JSON.stringify(blocks)).not.toMatch(/"(html|tag|attributes)"/);
  });

  it("shows code blocks, headings and images as plain subset", () => {
    expect(
      markdownBlocks("# Title\n\n```js\nlet a = 1 < 2;\n```\n\n![logo](https://x.io/l.png)"),
    ).toEqual([
      { type: "p", spans: [{ text: "Title", strong: true }] },
      { type: "p", spans: [{ text: "let a = 1 < 2;", code: true }] },
      { type: "p", spans: [{ text: "logo", href: "https://x.io/l.png" }] },
    ]);
  });

  it("accepts only absolute http(s) and mailto targets", () => {
    expect(safeHref("https://a.example/x")).toBe("https://a.example/x");
    expect(safeHref("MAILTO:a@b.example")).toBe("MAILTO:a@b.example");
    for (const bad of [
      "javascript:alert(1)",
      " javascript:x",
      "data:x",
      "/x",
      "//x.example",
      "vbscript:x",
    ]) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });

  it("gives blocks to agent messages only", () => {
    const at = new Date(0).toISOString();
    expect(richWire({ id: "m1", role: "person", text: "**x**", at: 0 })).toEqual({
      id: "m1",
      role: "person",
      text: "**x**",
      at,
    });
    expect(richWire({ id: "m2", role: "agent", text: "**x**", at: 0 }).blocks).toEqual([
      { type: "p", spans: [{ text: "x", strong: true }] },
    ]);
  });

  it("sends the blocks stored with an agent message rather than reading its text again", () => {
    const stored = [{ type: "p" as const, spans: [{ text: "as stored" }] }];
    const wire = richWire({ id: "m3", role: "agent", text: "**x**", at: 0, blocks: stored });
    expect(wire.blocks).toEqual(stored);
  });
});

describe("Markdown over the chat API", () => {
  it("the session's history and live agent messages carry blocks; the person's never", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, { participant: { name: "**Ada**" } });
    const session = await open(link.token);
    expect(session.messages[0]).toMatchObject({ role: "agent", text: "Hi **Ada**!" });
    expect((session.messages[0] as { blocks?: unknown }).blocks).toEqual([
      { type: "p", spans: [{ text: "Hi " }, { text: "Ada", strong: true }, { text: "!" }] },
    ]);
    const client = await connect(session.socketUrl as string);
    client.send({ type: "message", text: "**bold?**" });
    const mine = (await client.next("message")).message as { blocks?: unknown };
    expect(mine.blocks).toBeUndefined();
    const reply = (await client.next("message")).message as { blocks?: unknown };
    expect(reply.blocks).toEqual([
      {
        type: "p",
        spans: [
          { text: "Thanks, " },
          { text: "Ada", strong: true },
          { text: '. You wrote: "' },
          { text: "bold?", strong: true },
          { text: '".' },
        ],
      },
    ]);
  });
});
