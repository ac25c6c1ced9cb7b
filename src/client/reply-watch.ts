// The agent's side of the chat while a reply is owed (docs/chat.md#replies): "… is typing" while
// the server says the agent writes, and a late reply noticed by the page itself when nothing at
// all arrives within REPLY_TIMEOUT_MS (the server gives up at the same deadline and says so).
import { REPLY_TIMEOUT_MS } from "../conversations/protocol";

/** Shows the typing indicator in `region` (a polite live region) and times the owed reply. */
export class ReplyWatch {
  private timer: number | undefined;

  constructor(
    private readonly region: HTMLElement,
    private readonly late: () => void,
  ) {}

  /** The server's `typing` frame (or a retry just sent): `name` is writing, or nobody is. */
  typing(active: boolean, name: string): void {
    if (!active) {
      this.settle();
      return;
    }
    // Rebuilt each time so the live region announces it; the dots are decoration.
    const dots = document.createElement("span");
    dots.className = "dots";
    dots.setAttribute("aria-hidden", "true");
    dots.append(
      document.createElement("i"),
      document.createElement("i"),
      document.createElement("i"),
    );
    const text = document.createElement("span");
    text.className = "typing-text";
    text.textContent = `${name} is typing…`;
    this.region.replaceChildren(dots, text);
    this.wait();
  }

  /** A reply is owed from now (the person sent a message): late after REPLY_TIMEOUT_MS. */
  wait(): void {
    if (this.timer !== undefined) return;
    this.timer = window.setTimeout(() => {
      this.settle();
      this.late();
    }, REPLY_TIMEOUT_MS);
  }

  /** The reply came or failed, or the chat is over: nothing is awaited any more. */
  settle(): void {
    window.clearTimeout(this.timer);
    this.timer = undefined;
    this.region.replaceChildren();
  }
}
