// Script of the hosted chat page (`GET /chat`, and `GET /chat/embed/{channelId}` in the widget's
// iframe; docs/chat.md).
// The launch token comes from the URL fragment only, so it never reaches a server log or a Referer
// header; the fragment stays in the address bar so a reload resumes the same conversation.

import { CLOSE_CODES, type ServerFrame, type WireMessage } from "../conversations/protocol";
import { Connection } from "./connection";
import { embedInWidget } from "./embed";
import { MessageList } from "./messages";
import { createQuestions } from "./questions";
import { showRating } from "./rating-loader";
import { ReplyWatch } from "./reply-watch";
import { ScrollKeeper } from "./scroll";
import type { Session, State } from "./session";
import { FINAL_TEXT, TEXT } from "./texts";

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`chat page is missing #${id}`);
  return node as T;
}

const root = document.documentElement;
const agentName = byId<HTMLElement>("agent-name");
const notice = byId<HTMLElement>("notice");
const retry = byId<HTMLButtonElement>("retry");
const log = byId<HTMLElement>("messages");
const list = byId<HTMLOListElement>("message-list");
const form = byId<HTMLFormElement>("composer");
const input = byId<HTMLTextAreaElement>("message-input");
const charCount = byId<HTMLElement>("char-count");
const send = byId<HTMLButtonElement>("send");
const endChat = byId<HTMLButtonElement>("end-chat");
const endDialog = byId<HTMLDialogElement>("end-dialog");

const token = new URLSearchParams(location.hash.slice(1)).get("launch")?.trim() ?? "";
// The widget's frame (`/chat/embed/{channelId}`) names its channel in the document (the policy it
// was served under), not in an address that could be spelt otherwise: only its links open in it.
const channelId = document.querySelector<HTMLMetaElement>(
  'meta[name="agent-edge-channel"]',
)?.content;
const widget = channelId ? embedInWidget(endDialog) : null;

const name = () => agentName.textContent ?? "";
// A workflow's questions answer over the socket; focus goes back to the composer after one.
const questions = createQuestions({
  send: (questionId, value) => connection.send({ type: "answer", questionId, value }),
  focusAfter: () => (form.hidden ? log.focus() : input.focus()),
});
const messages = new MessageList(list, name, questions);
const scroller = new ScrollKeeper(log, byId<HTMLButtonElement>("new-messages"));
const replies = new ReplyWatch(byId<HTMLElement>("typing"), () => replyProblem(TEXT.replyLate));
let maxChars = input.maxLength > 0 ? input.maxLength : 2000;
let rating: Session["rating"]; // cleared once shown after the end (docs/chat.md#rating)
// Kept until the server echoes it, so a refused message can be put back into the input.
let lastSent = "";
/** What the Retry button does now: open the session again, or ask for the owed reply. */
let retryAction: "open" | "reply" = "open";

const connection = new Connection(
  { token, channelId },
  {
    session: applySession,
    refused: (state) => {
      const shown =
        state === "loading" || state === "open" || state === "reconnecting" ? "error" : state;
      finish(shown, FINAL_TEXT[shown]);
    },
    unavailable: () => {
      setState("error", TEXT.failed);
      offerRetry("open");
    },
    reconnecting: () => {
      updateControls();
      // Said once, politely (the notice is a status region); typed text stays in the composer.
      if (root.dataset.state !== "reconnecting") setState("reconnecting", TEXT.reconnecting);
    },
    open: () => {
      setState("open", "");
      updateControls();
      // Send was disabled while away: a focus it held fell to the page; give it back to the input.
      if (
        document.hasFocus() &&
        (!document.activeElement || document.activeElement === document.body)
      ) {
        input.focus();
      }
    },
    frame: handleFrame,
    closedWith: (code) => {
      if (code === CLOSE_CODES.revoked) finish("revoked", TEXT.revoked);
      else if (code === CLOSE_CODES.ended) finish("ended", TEXT.ended);
      else if (code === CLOSE_CODES.expired) finish("expired", TEXT.expired);
      else return false;
      return true;
    },
  },
);

/** Sets the page state (tests wait on `data-state`) and the notice, the one status announcement. */
function setState(state: State, text: string): void {
  root.dataset.state = state;
  say(text);
  retry.hidden = true;
}

/** Puts `text` in the notice; a problem is shown as one (the final states' look). */
function say(text: string, problem = false): void {
  notice.textContent = text;
  notice.classList.toggle("problem", problem);
}

function offerRetry(action: typeof retryAction): void {
  retryAction = action;
  retry.hidden = false;
}

/** Ends the page for good: no more sockets, no form, a final notice. */
function finish(state: State, text: string): void {
  connection.stop();
  if (endDialog.open) endDialog.close();
  replies.settle();
  messages.dropDrafts();
  form.hidden = true;
  questions.closeAll();
  setState(state, text);
  if (state === "ended" && rating?.enabled) showRating(retry, token, rating);
  rating = undefined;
}

function addMessage(message: WireMessage, history = false): void {
  if (!messages.add(message)) return;
  widget?.shown(message, history);
  // This tab's own message brings the list to the end; another tab's counts as news.
  const own = message.role === "person" && message.text === lastSent;
  if (own) lastSent = "";
  scroller.added(own);
  if (message.role === "agent") {
    replies.settle();
    if (retryAction === "reply") {
      retry.hidden = true;
      say("");
    }
  }
}

/** The owed reply failed or is late: say so and offer to ask again. */
function replyProblem(text: (name: string) => string): void {
  replies.settle();
  // The problem is said in words instead; the reply, if it comes after all, arrives whole.
  messages.dropDrafts();
  say(text(name()), true);
  offerRetry("reply");
}

function updateControls(): void {
  send.disabled = !connection.open;
  endChat.disabled = !connection.open;
}

function updateCount(): void {
  const remaining = maxChars - input.value.length;
  const near = remaining <= Math.max(20, Math.ceil(maxChars * 0.1));
  charCount.hidden = !near;
  charCount.textContent = near ? `${remaining} characters left` : "";
}

function applySession(session: Session, first: boolean): void {
  agentName.textContent = session.agent.name;
  rating = session.rating;
  document.title = `Chat with ${session.agent.name}`;
  maxChars = session.limits.maxMessageChars;
  input.maxLength = maxChars;
  updateCount();
  // The new socket sends each reply being written again, whole so far.
  messages.dropDrafts();
  for (const message of session.messages) addMessage(message, first);
  if (session.status === "ended" || !session.socketUrl) {
    finish("ended", TEXT.ended);
    return;
  }
  form.hidden = false;
  if (first) input.focus();
  connection.connect(session.socketUrl);
}

async function start(): Promise<void> {
  setState("loading", TEXT.opening);
  await connection.start(true);
}

function handleFrame(frame: ServerFrame): void {
  if (frame.type === "message") addMessage(frame.message);
  else if (frame.type === "delta") {
    // Text only while it streams; the final message brings the Markdown (docs/chat.md#replies).
    if (messages.draft(frame.id, frame.text)) scroller.added(false);
    else scroller.grew();
  } else if (frame.type === "typing") {
    replies.typing(frame.active, name());
    // Nobody writes, yet the newest message is the person's: its reply was lost.
    if (!frame.active && messages.newestRole === "person") replyProblem(TEXT.replyFailed);
  } else if (frame.type === "error") showError(frame.error);
  else finish(frame.type, FINAL_TEXT[frame.type]);
}

function showError(error: Extract<ServerFrame, { type: "error" }>["error"]): void {
  if (error.code === "conversation_ended") {
    finish("ended", TEXT.ended);
    return;
  }
  if (error.code === "reply_failed") {
    replyProblem(error.details[0]?.reason === "timeout" ? TEXT.replyLate : TEXT.replyFailed);
    return;
  }
  if (lastSent && !input.value) {
    input.value = lastSent;
    updateCount();
  }
  lastSent = "";
  replies.settle();
  // A refused answer to a question (docs/chat.md#questions) is said like any refusal.
  questions.refused(error.code === "question_closed");
  if (error.code === "rate_limited") {
    const seconds = Number(error.details[0]?.retryAfterSeconds);
    say(TEXT.tooFast(Number.isFinite(seconds) ? Math.ceil(seconds) : null), true);
  } else if (error.code === "message_too_long") {
    say(TEXT.tooLong(maxChars), true);
  } else {
    say(error.message || TEXT.failed, true);
  }
}

function sendMessage(): void {
  const text = input.value.trim();
  if (!text || !connection.open) return;
  if (text.length > maxChars) {
    say(TEXT.tooLong(maxChars), true);
    return;
  }
  // An open question that takes text is answered by the composer (docs/chat.md#questions).
  const questionId = questions.textQuestion();
  if (questionId) questions.answer(questionId, text);
  else connection.send({ type: "message", text });
  lastSent = text;
  input.value = "";
  say("");
  retry.hidden = true;
  updateCount();
  // The agent owes no reply to an answer.
  if (!questionId) replies.wait();
  // After a click on Send, the person goes on typing where they were.
  input.focus();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  sendMessage();
});

input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

input.addEventListener("input", updateCount);
// Ending cannot be undone, so it is asked first; the modal dialog keeps focus inside itself,
// starts on "Keep chatting" and closes on Escape (docs/chat.md#ending-the-chat).
endChat.addEventListener("click", () => {
  if (!connection.open) return;
  endDialog.showModal();
  // Set here: the autofocus attribute is refused inside the widget's cross-origin iframe.
  byId("end-cancel").focus();
});

byId("end-cancel").addEventListener("click", () => endDialog.close());
byId("end-confirm").addEventListener("click", () => {
  endDialog.close();
  if (connection.send({ type: "end" })) endChat.disabled = true;
});
endDialog.addEventListener("close", () => {
  if (!form.hidden) endChat.focus();
});

retry.addEventListener("click", () => {
  if (retryAction === "open") {
    void start();
  } else if (connection.send({ type: "retry" })) {
    say("");
    retry.hidden = true;
    replies.typing(true, name());
  }
});

// Pasting another chat link into the same tab only changes the fragment, which loads nothing.
window.addEventListener("hashchange", () => location.reload());
if (token) void start();
else finish("invalid", TEXT.incomplete);
