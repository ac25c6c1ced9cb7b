/**
 * An agent message's Markdown blocks as React elements (docs/chat.md#formatting,
 * docs/dashboard.md#screens): the same blocks and the same rules as the chat's own renderer
 * (src/client/rich-text.ts). Every span is a text child, which React escapes, so nothing in a
 * message becomes markup; a link must be http(s) or mailto, and opens in a new tab without handing
 * over this page.
 */
import type { ReactNode } from "react";
import type { Schemas } from "../api";

type Block = Schemas["ChatBlock"];
type Span = Schemas["ChatSpan"];

const LINKABLE = /^(https?|mailto):/i;

/** `blocks` as paragraphs (<p>) and lists (<ul>/<ol> of <li>, nested as given). */
export function RichText(props: { blocks: readonly Block[] }): ReactNode {
  return props.blocks.map((block, index) => (
    // Blocks never move: a message's are fixed once it is stored, so the index is their identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <RichBlock key={index} block={block} />
  ));
}

function RichBlock({ block }: { block: Block }): ReactNode {
  if (block.type === "p") {
    return (
      <p dir="auto">
        {block.spans.map((span, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a paragraph's spans never move
          <RichSpan key={index} span={span} />
        ))}
      </p>
    );
  }
  const items = block.items.map((item, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a list's items never move
    <li key={index} dir="auto">
      <RichText blocks={item} />
    </li>
  ));
  if (!block.ordered) return <ul>{items}</ul>;
  return <ol start={block.start === 1 ? undefined : block.start}>{items}</ol>;
}

function RichSpan({ span }: { span: Span }): ReactNode {
  let node: ReactNode = span.text;
  if (span.code) node = <code>{node}</code>;
  if (span.em) node = <em>{node}</em>;
  if (span.strong) node = <strong>{node}</strong>;
  if (span.href && LINKABLE.test(span.href)) {
    node = (
      <a href={span.href} target="_blank" rel="noopener noreferrer">
        {node}
      </a>
    );
  }
  return node;
}
