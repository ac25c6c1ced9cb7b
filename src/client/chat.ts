// Script of the hosted chat page (`GET /chat`, also shown in the widget's iframe). The launch token
// comes from the URL fragment only, so it never reaches a server log or a Referer header; the
// fragment stays in the address bar so a reload resumes the same conversation.

import {
  CLOSE_CODES,
  type ClientFrame,
  frameText,
  parseServerFrame,
  type ServerFrame,
  type WireMessage,
} from "../conversations/protocol";
import { MessageList } from "./messages";
import { ScrollKeeper } from "./scroll";
import { openSession, type Session, type State } from "./session";

const TEXT = {
  opening: "Opening your conversation…",
  incomplete: "This chat link is incomplete. Open the full link you were sent.",
  ended: "This conversation has ended.",
  expired: "This link has expired.",
  revoked: "This link has been revoked.",
  invalid: "This chat link is not valid.",
  failed: "Something went wrong. Please try again in a moment.",
  reconnecting: "Reconnecting…",
  tooLong: (max: number) => `Your message is too long. Keep it to ${max} characters or fewer.`,
  tooFast: (seconds: number | null) =>
    seconds === null
      ? "You are sending messages too fast. Try again in a moment."
      : `You are sending messages too fast. Try again in ${seconds} s.`,
};

const MAX_BACKOFF_MS = 15_000;

/** What each final state says. */
const FINAL_TEXT: Record<"ended" | "revoked" | "expired" | "invalid" | "error", string> = {
  ended: TEXT.ended,
  revoked: TEXT.revoked,
  expired: TEXT.expired,
  invalid: TEXT.invalid,
  error: TEXT.failed,
};

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`chat page is missing #${id}`);
  return node as T;
}

const root = document.documentElement;
const agentName = byId<HTMLElement>("agent-name");
const notice = byId<HTMLElement>("notice");
const retry = byId<HTMLButtonElement>("retry");
const list = byId<HTMLOListElement>("messages");
const form = byId<HTMLFormElement>("composer");
const input = byId<HTMLTextAreaElement>("message-input");
const charCount = byId<HTMLElement>("char-count");
const send = byId<HTMLButtonElement>("send");
const endChat = byId<HTMLButtonElement>("end-chat");
const newMessages = byId<HTMLButtonElement>("new-messages");

const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("launch")?.trim() ?? "";
const embedded = fragment.get("embed") === "1";

const messages = new MessageList(list, () => agentName.textContent ?? "");
const scroller = new ScrollKeeper(list, newMessages);
let socket: WebSocket | null = null;
let final = false;
let attempt = 0;
let reconnectTimer: number | undefined;
let maxChars = input.maxLength > 0 ? input.maxLength : 2000;
// Kept until the server echoes it, so a refused message can be put back into the input.
let lastSent = "";

/** Sets the page state (tests wait on `data-state`) and the notice, the one status announcement. */
function setState(state: State, text: string): void {
  root.dataset.state = state;
  notice.textContent = text;
}

/** Ends the page for good: no more sockets, no form, a final notice. */
function finish(state: State, text: string): void {
  final = true;
  window.clearTimeout(reconnectTimer);
  const open = socket;
  socket = null;
  open?.close(1000);
  form.hidden = true;
  retry.hidden = true;
  setState(state, text);
}

function addMessage(message: WireMessage): void {
  if (!messages.add(message)) return;
  // This tab's own message brings the list to the end; another tab's counts as news.
  const own = message.role === "person" && message.text === lastSent;
  if (own) lastSent = "";
  scroller.added(own);
}

/** Ends the page in the final state a refused opening names. */
function refuse(state: State): void {
  const shown = state === "loading" || state === "open" ? "error" : state;
  finish(shown, FINAL_TEXT[shown]);
}

function socketOpen(): boolean {
  return socket?.readyState === WebSocket.OPEN;
}

function updateControls(): void {
  const open = socketOpen();
  send.disabled = !open;
  endChat.disabled = !open;
}

function updateCount(): void {
  const remaining = maxChars - input.value.length;
  const near = remaining <= Math.max(20, Math.ceil(maxChars * 0.1));
  charCount.hidden = !near;
  charCount.textContent = near ? `${remaining} characters left` : "";
}

function applySession(session: Session, first: boolean): void {
  agentName.textContent = session.agent.name;
  document.title = `Chat with ${session.agent.name}`;
  maxChars = session.limits.maxMessageChars;
  input.maxLength = maxChars;
  updateCount();
  for (const message of session.messages) addMessage(message);
  if (session.status === "ended" || !session.socketUrl) {
    finish("ended", TEXT.ended);
    return;
  }
  form.hidden = false;
  if (first) input.focus();
  connect(session.socketUrl);
}

async function start(): Promise<void> {
  retry.hidden = true;
  setState("loading", TEXT.opening);
  const result = await openSession(token);
  if (result.kind === "session") applySession(result.session, true);
  else if (result.kind === "refused") refuse(result.state);
  else {
    setState("error", TEXT.failed);
    retry.hidden = false;
  }
}

function scheduleReconnect(minDelayMs = 0): void {
  updateControls();
  const delay = Math.max(Math.min(1000 * 2 ** attempt, MAX_BACKOFF_MS), minDelayMs);
  attempt += 1;
  setState("loading", TEXT.reconnecting);
  window.clearTimeout(reconnectTimer);
  reconnectTimer = window.setTimeout(reconnect, delay);
}

async function reconnect(): Promise<void> {
  reconnectTimer = undefined;
  // The ticket in a socket URL is single-use, so every reconnect starts with a fresh POST.
  const result = await openSession(token);
  if (final) return;
  if (result.kind === "session") applySession(result.session, false);
  else if (result.kind === "refused") refuse(result.state);
  else scheduleReconnect(result.retryAfterMs);
}

function connect(socketUrl: string): void {
  let ws: WebSocket;
  try {
    const url = new URL(socketUrl, location.href);
    if (url.protocol === "https:" || url.protocol === "http:") {
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    }
    ws = new WebSocket(url);
  } catch {
    scheduleReconnect();
    return;
  }
  socket = ws;
  // Events from a replaced socket are ignored: only the current one may change the page.
  ws.addEventListener("open", () => {
    if (socket !== ws) return;
    attempt = 0;
    setState("open", "");
    updateControls();
  });
  ws.addEventListener("message", (event) => {
    if (socket === ws) handleFrame(event.data);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws || final) return;
    socket = null;
    if (event.code === CLOSE_CODES.revoked) finish("revoked", TEXT.revoked);
    else if (event.code === CLOSE_CODES.ended) finish("ended", TEXT.ended);
    else if (event.code === CLOSE_CODES.expired) finish("expired", TEXT.expired);
    else scheduleReconnect();
  });
}

function handleFrame(data: unknown): void {
  const frame = typeof data === "string" ? parseServerFrame(data) : null;
  if (!frame) return;
  if (frame.type === "message") addMessage(frame.message);
  else if (frame.type === "error") showError(frame.error);
  else finish(frame.type, FINAL_TEXT[frame.type]);
}

function showError(error: Extract<ServerFrame, { type: "error" }>["error"]): void {
  if (error.code === "conversation_ended") {
    finish("ended", TEXT.ended);
    return;
  }
  if (lastSent && !input.value) {
    input.value = lastSent;
    updateCount();
  }
  lastSent = "";
  if (error.code === "rate_limited") {
    const seconds = Number(error.details[0]?.retryAfterSeconds);
    notice.textContent = TEXT.tooFast(Number.isFinite(seconds) ? Math.ceil(seconds) : null);
  } else if (error.code === "message_too_long") {
    notice.textContent = TEXT.tooLong(maxChars);
  } else {
    notice.textContent = error.message || TEXT.failed;
  }
}

function sendFrame(frame: ClientFrame): void {
  socket?.send(frameText(frame));
}

function sendMessage(): void {
  const text = input.value.trim();
  if (!text || !socket || !socketOpen()) return;
  if (text.length > maxChars) {
    notice.textContent = TEXT.tooLong(maxChars);
    return;
  }
  sendFrame({ type: "message", text });
  lastSent = text;
  input.value = "";
  notice.textContent = "";
  updateCount();
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

endChat.addEventListener("click", () => {
  if (!socket || !socketOpen()) return;
  sendFrame({ type: "end" });
  endChat.disabled = true;
});

retry.addEventListener("click", () => {
  void start();
});

// Coming back online should not wait out the remaining backoff.
window.addEventListener("online", () => {
  if (reconnectTimer !== undefined && !final) {
    window.clearTimeout(reconnectTimer);
    void reconnect();
  }
});

// Pasting another chat link into the same tab only changes the fragment, which loads nothing.
window.addEventListener("hashchange", () => location.reload());

if (embedded) {
  root.classList.add("embed");
  // Escape pressed inside the iframe never reaches the host page, so ask the widget to close.
  // The message carries nothing secret, hence the wildcard target origin.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && window.parent !== window) {
      window.parent.postMessage({ type: "agent-edge:close" }, "*");
    }
  });
}

if (token) void start();
else finish("invalid", TEXT.incomplete);
