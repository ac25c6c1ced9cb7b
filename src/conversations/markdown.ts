/**
 * Agent messages as a safe subset of Markdown (docs/chat.md#formatting): `marked`'s tokens reduced
 * to paragraphs and lists of spans (bold, italic, code, http(s)/mailto links), never HTML; the page
 * builds DOM nodes with text content only.
 */
import type { Lexer as MarkedLexer, Token, Tokens } from "marked";
import type { StoredMessage } from "./conversation/contract";
import { type Block, type Span, toWire, type WireMessage } from "./protocol";

/** Link targets a message may carry. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The marks a span inherits from the tokens around it. */
type Marks = Omit<Span, "text">;

/** marked's lexer once `loadMarkdown` has loaded it. */
let Lexer: typeof MarkedLexer | undefined;

/** Loads `marked` for `markdownBlocks`, kept out of start-up (docs/performance.md#start-up). */
export async function loadMarkdown(): Promise<void> {
  Lexer ??= (await import("marked")).Lexer;
}

/**
 * The blocks of `text` read as Markdown.
 * @returns paragraphs and (nested) lists; empty for text that holds nothing to show
 * @throws Error when `loadMarkdown` has not been awaited first (a fault of ours)
 */
export function markdownBlocks(text: string): Block[] {
  if (!Lexer) throw new Error("markdownBlocks before loadMarkdown()");
  return blocks(new Lexer({ gfm: true, breaks: true }).lex(text));
}

/** A stored message as the page gets it, an agent's with `blocks` (parsed now if not stored). */
export function richWire(message: StoredMessage): WireMessage {
  const wire = toWire(message);
  if (message.role !== "agent") return wire;
  return { ...wire, blocks: message.blocks ?? markdownBlocks(message.text) };
}

/** `richWire` of each message, loading `marked` first only when one was stored without blocks. */
export async function richWires(messages: readonly StoredMessage[]): Promise<WireMessage[]> {
  if (messages.some((message) => message.role === "agent" && !message.blocks)) {
    await loadMarkdown();
  }
  return messages.map((message) => richWire(message));
}

/** A link target kept as given when it is http(s) or mailto, else null. */
export function safeHref(href: string): string | null {
  try {
    return LINK_PROTOCOLS.has(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
}

function blocks(tokens: Token[]): Block[] {
  const out: Block[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "hr":
      case "def":
        break;
      case "list": {
        const list = token as Tokens.List;
        out.push({
          type: "list",
          ordered: list.ordered,
          start: list.ordered && typeof list.start === "number" ? list.start : 1,
          items: list.items.map((item) => blocks(item.tokens)),
        });
        break;
      }
      case "blockquote":
        out.push(...blocks((token as Tokens.Blockquote).tokens));
        break;
      case "heading":
        paragraph(out, spans((token as Tokens.Heading).tokens, { strong: true }));
        break;
      case "paragraph":
      case "text": {
        const inline = (token as Tokens.Paragraph | Tokens.Text).tokens;
        paragraph(out, inline ? spans(inline, {}) : [{ text: decode(token.raw) }]);
        break;
      }
      case "code":
        paragraph(out, [{ text: (token as Tokens.Code).text, code: true }]);
        break;
      default:
        // Raw HTML, tables and anything newer: shown as the text that was written.
        paragraph(out, [{ text: token.raw.trim() }]);
    }
  }
  return out;
}

function paragraph(out: Block[], content: Span[]): void {
  if (content.some((span) => span.text.trim() !== "")) out.push({ type: "p", spans: content });
}

function spans(tokens: Token[], marks: Marks): Span[] {
  const out: Span[] = [];
  const add = (text: string, extra: Marks = {}) => {
    if (text) out.push({ text, ...marks, ...extra });
  };
  for (const token of tokens) {
    switch (token.type) {
      case "text":
      case "escape": {
        const nested = (token as Tokens.Text).tokens;
        if (nested) out.push(...spans(nested, marks));
        else add(decode((token as Tokens.Text).text));
        break;
      }
      case "strong":
        out.push(...spans((token as Tokens.Strong).tokens, { ...marks, strong: true }));
        break;
      case "em":
        out.push(...spans((token as Tokens.Em).tokens, { ...marks, em: true }));
        break;
      case "del":
        out.push(...spans((token as Tokens.Del).tokens, marks));
        break;
      case "codespan":
        add((token as Tokens.Codespan).text, { code: true });
        break;
      case "br":
        add("\n");
        break;
      case "link": {
        const link = token as Tokens.Link;
        const href = safeHref(link.href);
        out.push(...spans(link.tokens, href ? { ...marks, href } : marks));
        break;
      }
      case "image": {
        const image = token as Tokens.Image;
        const href = safeHref(image.href);
        add(image.text || image.href, href ? { href } : {});
        break;
      }
      default:
        add(token.raw);
    }
  }
  return out;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/** Character references the lexer leaves in text (`AT&amp;T`), as the characters they stand for. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
    const code = Number.parseInt(
      name.slice(name[1] === "x" || name[1] === "X" ? 2 : 1),
      name[1]?.toLowerCase() === "x" ? 16 : 10,
    );
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
