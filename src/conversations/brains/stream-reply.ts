/**
 * A model's streamed text as a reply (docs/api/conversations.md#replies): pieces go on as they
 * come, but text that could become a trailing END_MARKER waits, so the person never sees it.
 */
import { END_MARKER } from "./prompt";
import type { BrainReply, DeltaSink } from "./types";

/** What the person reads when a model streams nothing usable. */
export const EMPTY_REPLY = "Sorry, I could not answer that. Could you rephrase?";

/**
 * A reply being streamed: `push` forwards each piece to `onDelta`, holding back a possible end
 * marker; `finish` gives the reply: the whole text trimmed, without the marker, `end` when the
 * text ended with it. Pieces forwarded stay forwarded whatever happens after.
 */
export class ReplyText {
  private text = "";
  private sent = 0;

  constructor(private readonly onDelta: DeltaSink) {}

  /** The next piece of the model's text. */
  push(piece: string): void {
    if (!piece) return;
    this.text += piece;
    const safe = heldFrom(this.text, this.sent);
    if (safe > this.sent) {
      this.onDelta(this.text.slice(this.sent, safe));
      this.sent = safe;
    }
  }

  /** The reply, once the model's text is complete. */
  finish(): BrainReply {
    const whole = this.text.trim();
    const end = whole.endsWith(END_MARKER);
    const reply = end ? whole.slice(0, -END_MARKER.length).trim() : whole;
    return { text: reply || EMPTY_REPLY, end };
  }
}

/** Where held-back text starts: a last `[` that may begin END_MARKER, or the marker and spaces. */
function heldFrom(text: string, sent: number): number {
  const bracket = text.lastIndexOf("[");
  if (bracket < sent) return text.length;
  const tail = text.slice(bracket);
  const couldEnd =
    END_MARKER.startsWith(tail) ||
    (tail.startsWith(END_MARKER) && tail.slice(END_MARKER.length).trim() === "");
  return couldEnd ? bracket : text.length;
}
