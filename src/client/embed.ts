// The chat page inside the widget's iframe (`#…&embed=1`, docs/widget.md): the compact look, and
// what the widget on the customer's page needs to hear from a frame it cannot look into (another
// origin): close requests (Escape never reaches the host page) and the messages shown, for the
// unread badge, the teaser and `AgentEdge.on("message")`.
import type { Block, WireMessage } from "../conversations/protocol";
import { type ShownMessage, WIDGET_MESSAGE } from "./widget-protocol";

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
  document.addEventListener("keydown", (event) => {
    // Escape in the dialog closes the dialog only.
    if (event.key === "Escape" && !dialog.open) tell({ type: WIDGET_MESSAGE.close });
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
