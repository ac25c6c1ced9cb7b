// The chat's rating after the end (docs/chat.md#rating): "How was this conversation?" with 1 to 5
// as a radio group (each named "3 out of 5") and an optional comment, sent as
// `POST /v1/chat/rating`; then a thank-you. Shown only when the channel asks for ratings.

/** What the session answer says of the rating; absent from an older server's answer. */
export type RatingState = { enabled: boolean; score: number | null };

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

/** The rating form, placed after `anchor`, hidden until `show` once the conversation ended. */
export class RatingPrompt {
  private state: RatingState | undefined;
  private readonly section = document.createElement("section");

  constructor(
    anchor: HTMLElement,
    private readonly token: string,
  ) {
    this.section.className = "rating";
    this.section.setAttribute("aria-labelledby", "rating-title");
    this.section.hidden = true;
    anchor.after(this.section);
  }

  /** Takes the session answer's rating (each opening brings it again). */
  configure(state: RatingState | undefined): void {
    this.state = state;
  }

  /** The conversation ended: ask, or thank when it was rated before (a reload). */
  show(): void {
    if (!this.state?.enabled || !this.section.hidden) return;
    this.section.hidden = false;
    if (this.state.score !== null) {
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
