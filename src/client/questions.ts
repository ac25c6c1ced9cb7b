// A workflow's questions on the chat page (docs/chat.md#questions): each question's options as
// real buttons in a group named by the question itself; when text is allowed, the composer
// answers the newest such question, as the question says. One click sends the `answer` frame;
// the buttons wait for the server, which stores the answer as the person's message and sends the
// question again, closed: answered, the buttons go (the answer below says it); closed unanswered,
// a note takes their place. Focus never falls to the page.
// Closures rather than a class: their names minify, and the page has a gzip budget.
import type { WireQuestion } from "../conversations/protocol";
import { TEXT } from "./texts";

/** What the questions need of the page. */
export type QuestionHooks = {
  /** Sends the answer frame; false when the socket is not open (nothing was sent). */
  send(questionId: string, value: string): boolean;
  /** Where focus goes when the control holding it goes away. */
  focusAfter(): void;
};

/** The page's questions, open and closed. */
export type Questions = {
  /**
   * The controls of a message's question, to append to its list item; a note once closed.
   * @param labelId the id of the element holding the question's text (the group's name)
   */
  render(question: WireQuestion, labelId: string): HTMLElement;
  /** The person's answer to the question is shown below it: the question makes way for it. */
  answeredBy(questionId: string): void;
  /** The server closed the question (answered, or the conversation ended): a note replaces it. */
  close(questionId: string): void;
  /** The conversation is over: every question is closed. */
  closeAll(): void;
  /** The newest open question that takes text, which the composer answers; null for none. */
  textQuestion(): string | null;
  /** Sends `value` as the answer to `questionId` (once: a second waits for the server's word). */
  answer(questionId: string, value: string): void;
  /** The server refused the pending answer: `closed` (question_closed) closes it, else the person may answer again. */
  refused(closed: boolean): void;
};

/** The questions of one page. */
export function createQuestions(hooks: QuestionHooks): Questions {
  /** Every question's box, for its note to follow an answer shown after it (a reload). */
  const boxes = new Map<string, HTMLElement>();
  const open = new Set<string>();
  /** Open questions that take text, oldest first. */
  const texts = new Set<string>();
  /** The question whose answer was sent and awaits the server's word. */
  let pending: string | null = null;

  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = "") => {
    const node = document.createElement(tag);
    node.className = className;
    node.textContent = text;
    return node;
  };

  // While an answer is on its way (milliseconds), further clicks do nothing; the buttons stay,
  // and so does focus, until the server closes the question.
  const answer = (id: string, value: string) => {
    if (!pending && hooks.send(id, value)) pending = id;
  };

  const close = (id: string) => {
    const box = boxes.get(id);
    if (!box || !open.delete(id)) return;
    if (pending === id) pending = null;
    texts.delete(id);
    const hadFocus = box.contains(document.activeElement);
    box.replaceChildren(make("p", "note", TEXT.questionClosed));
    if (hadFocus) hooks.focusAfter();
  };

  return {
    render(question, labelId) {
      const { id } = question;
      const box = make("div", "question");
      boxes.set(id, box);
      if (question.closed) {
        box.append(make("p", "note", TEXT.questionClosed));
        return box;
      }
      open.add(id);
      const group = make("div", "actions");
      group.setAttribute("role", "group");
      group.setAttribute("aria-labelledby", labelId);
      for (const option of question.options) {
        const button = make("button", "button secondary", option.label);
        button.type = "button";
        button.addEventListener("click", () => answer(id, option.value));
        group.append(button);
      }
      // A question that only takes text has no buttons, and so no group.
      if (question.options.length) box.append(group);
      if (question.allowText) {
        texts.add(id);
        box.append(make("p", "note", TEXT.typeAnswer));
      }
      return box;
    },
    answeredBy(id) {
      // The answer below says it all: no note (a reload shows the closed question first).
      close(id);
      boxes.get(id)?.remove();
    },
    close,
    closeAll() {
      for (const id of [...open]) close(id);
    },
    textQuestion: () => (pending ? null : ([...texts].pop() ?? null)),
    answer,
    refused(closed) {
      if (pending && closed) close(pending);
      pending = null;
    },
  };
}
