// The chat page's link to its conversation (docs/chat.md#connection): opening the session, the
// socket, and reconnecting after a drop with a short, capped backoff, at once when the tab becomes
// visible again or the network comes back. Every reconnect opens the session again, because the
// ticket in a socket URL is single-use; the history it returns fills any gap.
import {
  type ClientFrame,
  frameText,
  parseServerFrame,
  type ServerFrame,
} from "../conversations/protocol";
import { type Opener, openSession, type Session, type State } from "./session";

/** Longest wait between two reconnection attempts: a person waits, so seconds, not minutes. */
const MAX_BACKOFF_MS = 5_000;

/** What the page does with each turn of the connection. */
export type ConnectionHandlers = {
  /** A session was opened: the first time (`first`) or again after a drop. */
  session(session: Session, first: boolean): void;
  /** The session was refused for good (expired, revoked, invalid…). */
  refused(state: State): void;
  /** The first opening failed for now (network, 5xx): the page offers to try again. */
  unavailable(): void;
  /** The socket dropped; a new attempt is scheduled. */
  reconnecting(): void;
  open(): void;
  frame(frame: ServerFrame): void;
  /** The server closed the socket with one of its close codes (docs/api/conversations.md). */
  closedWith(code: number): boolean;
};

/** One page's connection; `stop()` ends it for good. */
export class Connection {
  private socket: WebSocket | null = null;
  private stopped = false;
  private attempt = 0;
  private timer: number | undefined;

  constructor(
    private readonly opener: Opener,
    private readonly on: ConnectionHandlers,
  ) {
    // Coming back online, or to the tab, should not wait out the remaining backoff.
    window.addEventListener("online", () => this.now());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.now();
    });
  }

  /** Whether frames can be sent. */
  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Opens the session (the first time, or to reconnect) and hands the outcome to the page. */
  async start(first: boolean): Promise<void> {
    this.timer = undefined;
    const result = await openSession(this.opener);
    if (this.stopped) return;
    if (result.kind === "session") this.on.session(result.session, first);
    else if (result.kind === "refused") this.on.refused(result.state);
    else if (first) this.on.unavailable();
    else this.later(result.retryAfterMs);
  }

  /** Connects the socket of an opened session. */
  connect(socketUrl: string): void {
    let ws: WebSocket;
    try {
      const url = new URL(socketUrl, location.href);
      if (url.protocol === "https:" || url.protocol === "http:") {
        url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      }
      ws = new WebSocket(url);
    } catch {
      this.later();
      return;
    }
    this.socket = ws;
    // Events from a replaced socket are ignored: only the current one may change the page.
    ws.addEventListener("open", () => {
      if (this.socket !== ws) return;
      this.attempt = 0;
      this.on.open();
    });
    ws.addEventListener("message", (event) => {
      const frame = typeof event.data === "string" ? parseServerFrame(event.data) : null;
      if (this.socket === ws && frame) this.on.frame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.socket !== ws || this.stopped) return;
      this.socket = null;
      if (!this.on.closedWith(event.code)) this.later();
    });
  }

  /** Sends a frame; false when the socket is not open. */
  send(frame: ClientFrame): boolean {
    if (!this.socket || !this.open) return false;
    this.socket.send(frameText(frame));
    return true;
  }

  /** Ends the connection for good: no socket, no more attempts. */
  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }

  private later(minDelayMs = 0): void {
    // 1, 2, 4, 5, 5… s, each shortened by up to a quarter at random so that pages dropped together
    // (a deploy) do not come back together; a 429's Retry-After is honoured as given.
    const backoff = Math.min(1000 * 2 ** this.attempt, MAX_BACKOFF_MS) * (1 - Math.random() / 4);
    const delay = Math.max(backoff, minDelayMs);
    this.attempt += 1;
    this.on.reconnecting();
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.start(false), delay);
  }

  /** Reconnects at once when a reconnection is waiting. */
  private now(): void {
    if (this.timer === undefined || this.stopped) return;
    window.clearTimeout(this.timer);
    void this.start(false);
  }
}
