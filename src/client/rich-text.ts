// An agent message's Markdown blocks as DOM nodes (docs/chat.md#formatting). Built with
// createElement and text nodes only, so nothing in a message can become markup; a link must be
// http(s) or mailto here too, and opens in a new tab without handing over this page.
import type { Block, Span } from "../conversations/protocol";

const LINKABLE = /^(https?|mailto):/i;

/** Appends `blocks` to `into`: paragraphs as <p>, lists as <ul>/<ol> of <li>. */
export function renderBlocks(blocks: Block[], into: HTMLElement): void {
  for (const block of blocks) {
    if (block.type === "p") {
      const p = document.createElement("p");
      p.dir = "auto";
      for (const span of block.spans) p.append(renderSpan(span));
      into.append(p);
    } else {
      const list = document.createElement(block.ordered ? "ol" : "ul");
      if (block.ordered && block.start !== 1) list.setAttribute("start", String(block.start));
      for (const item of block.items) {
        const li = document.createElement("li");
        li.dir = "auto";
        renderBlocks(item, li);
        list.append(li);
      }
      into.append(list);
    }
  }
}

function renderSpan(span: Span): Node {
  let node: Node = document.createTextNode(span.text);
  const wrap = (tag: string) => {
    const element = document.createElement(tag);
    element.append(node);
    node = element;
  };
  if (span.code) wrap("code");
  if (span.em) wrap("em");
  if (span.strong) wrap("strong");
  if (span.href && LINKABLE.test(span.href)) {
    wrap("a");
    const link = node as HTMLAnchorElement;
    link.href = span.href;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  return node;
}
