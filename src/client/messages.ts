// The message list of the chat page: each message rendered once (by id, so history and live
// frames may overlap), the person's as text, the agent's from its Markdown blocks, each with its
// speaker for screen readers and its local time.
// A reply being written shows as a draft of plain text, growing with each `delta` frame, hidden
// from screen readers: the log announces the final message once, when it replaces the draft.
// Scrolling is ./scroll.ts's job; a workflow's question's controls are ./questions.ts's.
import type { WireMessage } from "../conversations/protocol";
import type { Questions } from "./questions";
import { renderBlocks } from "./rich-text";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });

/** Renders messages into `list`; `speaker()` names the agent as the page currently knows it. */
export class MessageList {
  private readonly seen = new Set<string>();
  /** Drafts of replies being written, by the id their message will have. */
  private readonly drafts = new Map<string, HTMLLIElement>();
  /**
   * Who wrote the newest message shown; a person's means a reply is owed. Null for none, or for
   * the person's answer to a workflow's question, which the agent does not reply to.
   */
  newestRole: WireMessage["role"] | null = null;

  constructor(
    private readonly list: HTMLOListElement,
    private readonly agentName: () => string,
    private readonly questions: Questions,
  ) {}

  /**
   * Appends `text` to the draft of reply `id` (created at the end of the list when new), unless
   * its message is shown already; returns whether a draft was created.
   */
  draft(id: string, text: string): boolean {
    if (this.seen.has(id)) return false;
    const draft = this.drafts.get(id);
    if (draft) {
      draft.firstChild?.appendChild(document.createTextNode(text));
      return false;
    }
    const item = document.createElement("li");
    item.className = "message agent draft";
    // Announced once, whole, by the log when the final message comes; not word by word.
    item.setAttribute("aria-hidden", "true");
    const body = document.createElement("p");
    body.className = "text";
    body.dir = "auto";
    body.textContent = text;
    item.append(body);
    this.drafts.set(id, item);
    this.list.append(item);
    return true;
  }

  /** Removes every draft: the conversation is over, or a reconnection sends them again whole. */
  dropDrafts(): void {
    for (const draft of this.drafts.values()) draft.remove();
    this.drafts.clear();
  }

  /** Appends `message` (in place of its draft) unless it is already shown; returns whether it was new. */
  add(message: WireMessage): boolean {
    if (this.seen.has(message.id)) {
      // Sent again once its question closed (docs/chat.md#questions).
      if (message.question?.closed) this.questions.close(message.question.id);
      return false;
    }
    this.seen.add(message.id);
    this.newestRole = message.answerTo ? null : message.role;
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
    const { question } = message;
    if (question) {
      text.id = message.id;
      item.append(this.questions.render(question, text.id));
    }
    if (message.answerTo) this.questions.answeredBy(message.answerTo);
    if (message.interrupted) {
      const note = document.createElement("p");
      note.className = "note";
      note.textContent = "This reply was cut off.";
      item.append(note);
    }

    const at = new Date(message.at);
    if (!Number.isNaN(at.getTime())) {
      const time = document.createElement("time");
      time.dateTime = message.at;
      time.textContent = timeFormat.format(at);
      item.append(time);
    }
    const draft = this.drafts.get(message.id);
    this.drafts.delete(message.id);
    if (draft) draft.replaceWith(item);
    else this.list.append(item);
    return true;
  }
}
