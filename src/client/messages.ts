// The message list of the chat page: each message rendered once (by id, so history and live
// frames may overlap), the person's as text, the agent's from its Markdown blocks, each with its
// speaker for screen readers and its local time.
// Scrolling is ./scroll.ts's job.
import type { WireMessage } from "../conversations/protocol";
import { renderBlocks } from "./rich-text";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });

/** Renders messages into `list`; `speaker()` names the agent as the page currently knows it. */
export class MessageList {
  private readonly seen = new Set<string>();
  /** Who wrote the newest message shown; a person's means a reply is owed. */
  newestRole: WireMessage["role"] | null = null;

  constructor(
    private readonly list: HTMLOListElement,
    private readonly agentName: () => string,
  ) {}

  /** Appends `message` unless it is already shown; returns whether it was new. */
  add(message: WireMessage): boolean {
    if (this.seen.has(message.id)) return false;
    this.seen.add(message.id);
    this.newestRole = message.role;
    const item = document.createElement("li");
    item.className = `message ${message.role}`;
    item.dataset.id = message.id;
    const speaker = document.createElement("span");
    speaker.className = "visually-hidden";
    speaker.textContent = message.role === "person" ? "You: " : `${this.agentName()}: `;
    // An agent's Markdown becomes paragraphs and lists; everything else stays plain text.
    const text = document.createElement(message.blocks ? "div" : "p");
    text.className = message.blocks ? "text rich" : "text";
    // Arabic or Hebrew runs right to left, whatever the page's direction (docs/chat.md#layout);
    // Markdown decides per paragraph and list item.
    if (message.blocks) renderBlocks(message.blocks, text);
    else {
      text.dir = "auto";
      text.textContent = message.text;
    }
    item.append(speaker, text);

    const at = new Date(message.at);
    if (!Number.isNaN(at.getTime())) {
      const time = document.createElement("time");
      time.dateTime = message.at;
      time.textContent = timeFormat.format(at);
      item.append(time);
    }
    this.list.append(item);
    return true;
  }
}
