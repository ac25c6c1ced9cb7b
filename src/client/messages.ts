// The message list of the chat page: each message rendered once (by id, so history and live
// frames may overlap), as text only, with its speaker for screen readers and its local time.
import type { WireMessage } from "../conversations/protocol";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });

/** Renders messages into `list`; `speaker()` names the agent as the page currently knows it. */
export class MessageList {
  private readonly seen = new Set<string>();

  constructor(
    private readonly list: HTMLOListElement,
    private readonly agentName: () => string,
  ) {}

  /** Appends `message` unless it is already shown; returns whether it was new. */
  add(message: WireMessage): boolean {
    if (this.seen.has(message.id)) return false;
    this.seen.add(message.id);
    const item = document.createElement("li");
    item.className = `message ${message.role}`;
    item.dataset.id = message.id;
    const speaker = document.createElement("span");
    speaker.className = "visually-hidden";
    speaker.textContent = message.role === "person" ? "You: " : `${this.agentName()}: `;
    const text = document.createElement("p");
    text.className = "text";
    text.textContent = message.text;
    item.append(speaker, text);

    const at = new Date(message.at);
    if (!Number.isNaN(at.getTime())) {
      const time = document.createElement("time");
      time.dateTime = message.at;
      time.textContent = timeFormat.format(at);
      item.append(time);
    }
    this.list.append(item);
    // The log around the list is what scrolls (src/conversations/page.ts).
    const log = this.list.parentElement ?? this.list;
    log.scrollTop = log.scrollHeight;
    return true;
  }
}
