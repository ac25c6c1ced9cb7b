// What the widget (widget.ts, on the customer's page) and the chat page in its iframe (embed.ts)
// tell each other with postMessage (docs/widget.md#how-it-works). Both ends check the sender's
// window (and the widget the chat's origin) before believing a message.

/** Message types, prefixed so they cannot be mistaken for the customer's own messages. */
export const WIDGET_MESSAGE = {
  /** Chat → widget: close the panel (Escape or the header's close button). */
  close: "agent-edge:close",
  /** Chat → widget: a message was shown ({@link ShownMessage}). */
  message: "agent-edge:message",
  /** Widget → chat: `{modal}`, whether the panel fills a phone's screen, so Tab stays inside. */
  modal: "agent-edge:modal",
} as const;

/**
 * A message the chat page showed, as the widget hears of it: `history` when it came with the
 * opening of the conversation (already read, or the greeting), not while the page was open.
 */
export type ShownMessage = {
  type: typeof WIDGET_MESSAGE.message;
  role: "agent" | "person";
  /** Plain text: an agent's Markdown without its marks. */
  text: string;
  /** ISO 8601 */
  at: string;
  history: boolean;
};

/** Whether `data` is a widget message of `type` (any other shape is someone else's). */
export function isWidgetMessage<T extends string>(
  data: unknown,
  type: T,
): data is { type: T } & Record<string, unknown> {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === type;
}
