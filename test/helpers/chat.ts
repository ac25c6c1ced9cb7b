/**
 * Test helpers for the browser chat API: create a link like the customer's server, open it like the
 * chat page, and talk over its WebSocket.
 */
import { exports } from "cloudflare:workers";
import { call, expectJson, launchBody, type Workspace } from "./api";

export type Session = {
  sessionId: string;
  status: "in-progress" | "ended";
  agent: { name: string; mode: string };
  participant: { name: string | null };
  messages: { id: string; role: "agent" | "person"; text: string; at: string }[];
  socketUrl?: string;
  limits: { maxMessageChars: number; messagesPerMinute: number; sessionOpensPerMinute: number };
};

/** Creates a link of the workspace's agent; returns its id and token. */
export async function createLaunch(
  ws: Workspace,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string; url: string }> {
  return expectJson(
    await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws, extra) }),
    201,
  );
}

/**
 * `POST /v1/chat/sessions` with the token, as the chat page does; with `channelId` as the
 * embedded chat of that widget channel does.
 */
export function openSession(
  token: string,
  headers: Record<string, string> = {},
  channelId?: string,
): Promise<Response> {
  return call("POST", "/v1/chat/sessions", { body: { token, channelId }, headers });
}

/** Opens the session and expects 200. */
export async function open(token: string): Promise<Session> {
  return expectJson<Session>(await openSession(token), 200);
}

/** The link as look-up shows it. */
export async function lookUp(
  ws: Workspace,
  id: string,
): Promise<{
  status: string;
  conversation: {
    sessionId: string;
    status: string;
    startedAt: string;
    endedAt: string | null;
  } | null;
}> {
  return expectJson(await call("GET", `/v1/widget/launches/${id}`, { token: ws.widgetKey }), 200);
}

export type Frame = {
  type: string;
  message?: Session["messages"][number] & { interrupted?: boolean };
  /** A `delta` frame's draft message id and piece of text. */
  id?: string;
  text?: string;
  error?: { code: string; details: Record<string, unknown>[] };
};

/** A client socket that queues the frames it receives and its close. */
export type Client = {
  socket: WebSocket;
  /** The next frame (of `type` when given, skipping others). */
  next(type?: string): Promise<Frame>;
  send(frame: unknown): void;
  closed: Promise<{ code: number }>;
};

/** Connects to `socketUrl` (the upgrade goes to the Worker like a browser's would). */
export async function connect(socketUrl: string): Promise<Client> {
  const response = await upgrade(socketUrl);
  const socket = response.webSocket;
  if (!socket) throw new Error(`no WebSocket: ${response.status} ${await response.text()}`);
  socket.accept();
  const frames: Frame[] = [];
  const waiting: (() => void)[] = [];
  socket.addEventListener("message", (event) => {
    frames.push(JSON.parse(event.data as string) as Frame);
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<{ code: number }>((resolve) =>
    socket.addEventListener("close", (event) => resolve({ code: event.code })),
  );
  return {
    socket,
    closed,
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    async next(type) {
      for (;;) {
        const index = frames.findIndex((frame) => type === undefined || frame.type === type);
        if (index >= 0) return frames.splice(0, index + 1).at(-1) as Frame;
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
  };
}

/** The WebSocket upgrade request for `socketUrl`. */
export function upgrade(socketUrl: string): Promise<Response> {
  const url = socketUrl.replace(/^ws/, "http");
  return exports.default.fetch(new Request(url, { headers: { upgrade: "websocket" } }));
}
