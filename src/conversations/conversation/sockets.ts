/** Writing to the conversation's sockets, where a closing socket must not fail the caller. */
import { frameText, type ServerFrame, type SocketErrorCode } from "../protocol";
import type { Refusal } from "./admission";

/** Sends an error frame in the one envelope (docs/errors.md), details as given. */
export function sendError(
  ws: WebSocket,
  code: SocketErrorCode,
  text: string,
  details: Record<string, string | number>[] = [],
): void {
  trySend(ws, frameText({ type: "error", error: { code, message: text, details } }));
}

/** Sends the error frame of a refused frame (./admission.ts). */
export function sendRefusal(ws: WebSocket, refusal: Refusal): void {
  sendError(ws, refusal.code, refusal.message, refusal.details);
}

/** Sends the frame; a socket that is closing misses it (the history has the message). */
export function trySend(ws: WebSocket, frame: string): boolean {
  try {
    ws.send(frame);
    return true;
  } catch {
    return false; // a socket that is closing misses the frame; the history has it
  }
}

/** Sends `frame` to every socket; returns how many took it. */
export function broadcast(sockets: WebSocket[], frame: ServerFrame): number {
  const text = frameText(frame);
  let sent = 0;
  for (const socket of sockets) if (trySend(socket, text)) sent++;
  return sent;
}

/** Sends `frame` to every socket, then closes each with `code` (the page's final state). */
export function closeAll(
  sockets: WebSocket[],
  frame: ServerFrame,
  code: number,
  reason: string,
): void {
  broadcast(sockets, frame);
  for (const socket of sockets) {
    try {
      socket.close(code, reason);
    } catch {} // already closing
  }
}
