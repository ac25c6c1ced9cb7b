// The chat scenario: a person's message over the conversation's socket, round trip to the agent's
// final message. The agent's brain is the OpenAI-compatible one (LLM_BASE_URL …) talking to a
// model stand-in on 127.0.0.1 that streams a short reply at once, so the figure is our cost around
// a model call: the frame, the admission, the stored messages, the model's request and its
// server-sent events, the deltas and the final message.
import http from "node:http";
import { rssMiB, settledCpuMs } from "./load.mjs";
import { post } from "./workflows.mjs";

/** What the stand-in model streams, a piece per event. */
const PIECES = ["Sure, ", "your **Pro** plan ", "is ready. ", "Anything else?"];
/** A conversation takes 20 messages a minute (docs/limits.md#chat): each sends fewer. */
const MESSAGES_PER_CONVERSATION = 18;
const REPLY_TIMEOUT_MS = 10_000;

/** The vars that point our Worker's agent at the model stand-in (`startModel`'s URL). */
export const modelVars = (url) => ({ LLM_BASE_URL: url, LLM_API_KEY: "bench", LLM_MODEL: "bench" });

/**
 * Conversations a chat run of `seconds` on `connections` sockets is given: enough for the whole run
 * at any rate this machine reaches (each takes MESSAGES_PER_CONVERSATION messages, and none twice).
 */
export const conversationsFor = (seconds, connections) => Math.max(connections * 4, seconds * 40);

/** The model stand-in: OpenAI's chat-completions stream, every piece at once. Resolves to its URL. */
export async function startModel() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const [index, content] of PIECES.entries()) {
        const delta = index === 0 ? { role: "assistant", content } : { content };
        const chunk = { id: "bench", object: "chat.completion.chunk", created: 1, model: "bench" };
        const choice = { index: 0, delta, finish_reason: null };
        response.write(`data: ${JSON.stringify({ ...chunk, choices: [choice] })}\n\n`);
      }
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

/** Opens `count` conversations (link, session); resolves to their socket URLs. */
export async function openConversations(base, ws, count) {
  const urls = [];
  for (let n = 0; n < count; n++) {
    const link = await post(base, "/v1/widget/launches", ws.widgetKey, {
      flowId: ws.agentId,
      channelId: ws.channelId,
      parameters: { plan: "pro" },
      participant: { name: "Ada", externalId: `cus_${n}` },
    });
    const session = await post(
      base,
      "/v1/chat/sessions",
      undefined,
      { token: link.token },
      {
        expect: 200,
      },
    );
    urls.push(session.socketUrl);
  }
  return urls;
}

/** One person on one socket: sends messages one at a time, each after the agent's answer. */
async function converse(socketUrl, deadline, record) {
  const socket = new WebSocket(socketUrl);
  const frames = [];
  let wake = () => {};
  socket.addEventListener("message", (event) => {
    frames.push(JSON.parse(String(event.data)));
    wake();
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("socket refused")), { once: true });
  });
  const agentMessage = async (until) => {
    for (;;) {
      const index = frames.findIndex((f) => f.type === "message" && f.message.role === "agent");
      if (index >= 0) return frames.splice(0, index + 1).at(-1);
      const error = frames.find((f) => f.type === "error");
      if (error) throw new Error(`chat error: ${JSON.stringify(error)}`);
      if (Date.now() > until) throw new Error("no reply in time");
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  // The greeting came with the session (POST /v1/chat/sessions), not over the socket.
  for (let n = 0; n < MESSAGES_PER_CONVERSATION && Date.now() < deadline; n++) {
    const started = performance.now();
    socket.send(JSON.stringify({ type: "message", text: `Question ${n}: is my plan ready?` }));
    try {
      await agentMessage(Date.now() + REPLY_TIMEOUT_MS);
      record(performance.now() - started, null);
    } catch (error) {
      record(performance.now() - started, error);
      break;
    }
  }
  socket.close();
}

/**
 * Round trips on `connections` sockets at a time for `seconds` (each conversation up to
 * MESSAGES_PER_CONVERSATION messages, then the next), bounded by the conversations given.
 * Resolves to `{ total, failures, latencies (ms, sorted) }`.
 */
export async function chatLoad(socketUrls, { seconds, connections }) {
  const deadline = Date.now() + seconds * 1000;
  const latencies = [];
  let failures = 0;
  const record = (ms, error) => (error ? failures++ : latencies.push(ms));
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline && next < socketUrls.length) {
        await converse(socketUrls[next++], deadline, record).catch(() => failures++);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { total: latencies.length, failures, latencies };
}

/**
 * The chat scenario's row, as `measure` gives others: a warm-up on `warm`'s conversations, then
 * `seconds` of round trips on `urls`', with the CPU (µs per round trip) and RSS of process `pid`.
 */
export async function measureChat({ pid, warm, urls, seconds, warmupSeconds, connections }) {
  await chatLoad(warm, { seconds: warmupSeconds, connections });
  const before = await settledCpuMs(pid);
  const r = await chatLoad(urls, { seconds, connections });
  const at = (q) =>
    r.latencies[Math.min(r.latencies.length - 1, Math.floor(q * r.latencies.length))] ?? 0;
  return {
    reqPerSec: r.total / seconds,
    latencyP50Ms: Math.round(at(0.5)),
    latencyP99Ms: Math.round(at(0.99)),
    totalRequests: r.total,
    cpuMicrosPerCall: (((await settledCpuMs(pid)) - before) * 1000) / Math.max(1, r.total),
    rssMiB: rssMiB(pid),
    non2xx: r.failures,
    status5xx: r.failures,
    unexpectedStatus: r.failures,
  };
}
