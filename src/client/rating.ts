// The chat's rating after the end (docs/chat.md#rating): "How was this conversation?" with 1 to 5
// as a radio group (each named "3 out of 5") and an optional comment, sent as
// `POST /v1/chat/rating`; then a thank-you. A bundle of its own (with ./rating.css), which the
// chat page loads only when a conversation ends on a channel that asks for ratings
// (./rating-loader.ts); it registers its mount function on the global of ./rating-contract.d.ts.

import type { MountRating, RatingState } from "./rating-contract";

const THANKS = "Thanks for your rating!";

// Static markup, no data in it: the scores' names are what a screen reader says for each button.
const FORM = `<form class="rating-form" novalidate><fieldset class="rating-scores"><legend id="rating-title">How was this conversation?</legend>${[
  1, 2, 3, 4, 5,
]
  .map(
    (n) =>
      `<input type="radio" name="score" value="${n}" id="rating-${n}"><label class="button secondary" for="rating-${n}"><span aria-hidden="true">${n}</span><span class="visually-hidden">${n} out of 5</span></label>`,
  )
  .join(
    "",
  )}</fieldset><label for="rating-comment">Comment (optional)</label><textarea id="rating-comment" name="comment" rows="2" maxlength="1000" dir="auto"></textarea><button class="button primary" type="submit">Send rating</button><p class="rating-status problem" role="status"></p></form>`;

/** The rating form or its thanks, in a section placed after the anchor. */
class RatingPrompt {
  private readonly section = document.createElement("section");

  constructor(
    anchor: HTMLElement,
    private readonly token: string,
  ) {
    this.section.className = "rating";
    this.section.setAttribute("aria-labelledby", "rating-title");
    anchor.after(this.section);
  }

  /** Asks, or thanks when it was rated before (a reload). */
  show(state: RatingState): void {
    if (state.score !== null) {
      this.thank(false);
      return;
    }
    this.section.innerHTML = FORM;
    const form = this.section.querySelector("form") as HTMLFormElement;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const score = Number(data.get("score"));
      if (!score) {
        this.say(form, "Choose a rating from 1 to 5 first.");
        form.querySelector("input")?.focus();
        return;
      }
      void this.send(form, score, String(data.get("comment") ?? "").trim());
    });
  }

  private async send(form: HTMLFormElement, score: number, comment: string): Promise<void> {
    const submit = form.querySelector("button") as HTMLButtonElement;
    submit.disabled = true;
    let code: string | undefined;
    try {
      const response = await fetch("/v1/chat/rating", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(
          comment ? { token: this.token, score, comment } : { token: this.token, score },
        ),
        referrerPolicy: "no-referrer",
        credentials: "omit",
        cache: "no-store",
      });
      code = response.ok ? "ok" : (await response.json()).error.code;
    } catch {}
    // Rated already (another tab): the person's part is done all the same.
    if (code === "ok" || code === "already_rated") {
      this.thank(true);
      return;
    }
    submit.disabled = false;
    this.say(form, "Your rating could not be sent. Please try again.");
  }

  /** Thanks; `focus` after sending, as the form (and the focus in it) goes. */
  private thank(focus: boolean): void {
    this.section.innerHTML = `<p class="rating-thanks" id="rating-title" tabindex="-1">${THANKS}</p>`;
    // Focus moves from the removed form to the answer, which a screen reader then reads.
    if (focus) this.section.querySelector("p")?.focus();
  }

  private say(form: HTMLFormElement, text: string): void {
    (form.querySelector(".rating-status") as HTMLElement).textContent = text;
  }
}

const mountRating: MountRating = (anchor, token, state) =>
  new RatingPrompt(anchor, token).show(state);
window.agentEdgeMountRating = mountRating;
