// Keeps the chat's message list at its newest message (docs/chat.md#layout): it opens scrolled to
// the end and stays there as messages arrive and as the list's box changes (the composer appearing
// after the history, a growing textarea, a phone's keyboard), unless the person scrolled up to
// read; then arrivals show the "New messages" button instead of pulling the list away.

/** How close to the end (CSS px) still counts as at the end: rounding and sub-pixel layouts. */
const END_SLACK_PX = 32;

/** Stick-to-end scrolling of `list`, with `button` shown for messages that arrive off screen. */
export class ScrollKeeper {
  private pinned = true;
  /** Where the last programmatic scroll left the list (px), to tell it from the person's. */
  private setTop = -1;

  constructor(
    private readonly list: HTMLElement,
    private readonly button: HTMLButtonElement,
  ) {
    list.addEventListener(
      "scroll",
      () => {
        // Our own scroll, seen after the box shrank (the composer appeared), is not the person
        // scrolling away: only a position we did not set decides.
        if (list.scrollTop === this.setTop) return;
        this.pinned = this.atEnd();
        if (this.pinned) button.hidden = true;
      },
      { passive: true },
    );
    new ResizeObserver(() => {
      if (this.pinned) this.toEnd();
    }).observe(list);
    button.addEventListener("click", () => this.toEnd());
  }

  /** After a message was added: follow it when at the end or when it is the person's own. */
  added(own: boolean): void {
    if (this.pinned || own) this.toEnd();
    else this.button.hidden = false;
  }

  /** A message being written grew: follow it when at the end. */
  grew(): void {
    if (this.pinned) this.toEnd();
  }

  /** Scrolls to the newest message and stays there. */
  toEnd(): void {
    this.list.scrollTop = this.list.scrollHeight;
    this.setTop = this.list.scrollTop;
    this.pinned = true;
    this.button.hidden = true;
  }

  private atEnd(): boolean {
    const { scrollHeight, scrollTop, clientHeight } = this.list;
    return scrollHeight - scrollTop - clientHeight <= END_SLACK_PX;
  }
}
