// The chat page inside the widget's iframe (`/chat/embed/{channelId}`, docs/widget.md): the
// compact look with the widget's one header (the chat's, with a close button), Tab kept inside
// while the widget fills a phone's screen, and what the widget on the customer's page needs to
// hear from a frame it cannot look into (another origin): close requests (Escape never reaches the
// host page) and the messages shown, for the unread badge, the teaser and `AgentEdge.on("message")`.
import type { Block, WireMessage } from "../conversations/protocol";
import { isWidgetMessage, type ShownMessage, WIDGET_MESSAGE } from "./widget-protocol";

const FOCUSABLE = "button, textarea, input, select, a[href], [tabindex]:not([tabindex='-1'])";

/** What the chat page tells the widget. */
export type WidgetLink = {
  /** A message was shown; `history` when it came with the first opening of the session. */
  shown(message: WireMessage, history: boolean): void;
};

/** The blocks' text without marks: paragraphs and list items joined by line breaks. */
function plainText(blocks: Block[]): string {
  return blocks
    .map((block) =>
      block.type === "p"
        ? block.spans.map((span) => span.text).join("")
        : block.items.map((item) => plainText(item)).join("\n"),
    )
    .join("\n");
}

/**
 * Turns the page into the widget's chat: `dialog` is the End chat dialog, whose Escape is its own.
 * The parent is the only window that can hear these messages, and it holds the launch token that
 * reads this conversation anyway, hence the wildcard target origin.
 */
export function embedInWidget(dialog: HTMLDialogElement): WidgetLink {
  document.documentElement.classList.add("embed");
  const tell = (data: Record<string, unknown>): void => {
    if (window.parent !== window) window.parent.postMessage(data, "*");
  };
  const close = document.createElement("button");
  close.type = "button";
  close.className = "frame-close";
  close.setAttribute("aria-label", "Close chat");
  const cross = document.createElement("span");
  cross.setAttribute("aria-hidden", "true");
  cross.textContent = "×";
  close.append(cross);
  close.addEventListener("click", () => tell({ type: WIDGET_MESSAGE.close }));
  document.querySelector(".chat-header")?.append(close);

  // Whether the widget fills a phone's screen as a modal dialog: then Tab goes round in here.
  let modal = false;
  window.addEventListener("message", (event) => {
    if (event.source === window.parent && isWidgetMessage(event.data, WIDGET_MESSAGE.modal)) {
      modal = event.data.modal === true;
    }
  });
  document.addEventListener("keydown", (event) => {
    // Escape in the dialog closes the dialog only; the open dialog keeps Tab in itself.
    if (event.key === "Escape" && !dialog.open) tell({ type: WIDGET_MESSAGE.close });
    if (event.key !== "Tab" || !modal || dialog.open) return;
    const stops = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (node) => !node.matches(":disabled") && node.getClientRects().length > 0,
    );
    const [first, last] = [stops[0], stops.at(-1)];
    const at = document.activeElement;
    const outside = !stops.includes(at as HTMLElement);
    if (event.shiftKey && (at === first || outside)) last?.focus();
    else if (!event.shiftKey && (at === last || outside)) first?.focus();
    else return;
    event.preventDefault();
  });
  return {
    shown(message, history) {
      const shown: ShownMessage = {
        type: WIDGET_MESSAGE.message,
        role: message.role,
        text: message.blocks ? plainText(message.blocks) : message.text,
        at: message.at,
        history,
      };
      tell(shown);
    },
  };
}
