// `npm run smoke -- https://<host> [--event-url https://…]` (OPERATOR_TOKEN from the environment):
// checks a running service end to end (docs/operations.md#smoke). In a throwaway workspace: an
// agent with a widget channel and a widget key; a link created, looked up and opened, and a chat
// reply over its socket; a workflow whose webhook is answered (lastNode); an event endpoint and
// its test event. Then it deletes the workspace, whatever happened before. Each step is printed
// with its time; the first that fails ends the run (exit 1) with what was expected and what came.
//
// The event endpoint needs a URL the service can reach: `--event-url` or SMOKE_EVENT_URL (a public
// https URL for a deployed service); against a local target (127.0.0.1, localhost) the smoke
// starts a receiver of its own on 127.0.0.1 and checks the event's signature too (the local
// server must run with ALLOW_PRIVATE_OUTBOUND=true, as `npm run dev` and `npm run test:smoke` do).
// Nothing secret is printed: answers are shown only when they are not what was expected, and
// those are error envelopes.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { Webhook } from "standardwebhooks";

const USAGE = "Usage: OPERATOR_TOKEN=… npm run smoke -- https://<host> [--event-url https://…]";
/** How long one request may take (ms); the agent's reply has the service's own 30 s and a margin. */
const REQUEST_MS = 20_000;
const REPLY_MS = 40_000;

/** A step's failure: what was expected and what came. */
class Failed extends Error {}

/** Reads the base URL, the token and the event URL. @throws {Failed} with the usage */
function options(argv, env) {
  let base;
  let eventUrl = env.SMOKE_EVENT_URL || undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--event-url" && argv[i + 1]) eventUrl = argv[++i];
    else if (!base && /^https?:\/\//.test(argv[i])) base = argv[i].replace(/\/+$/, "");
    else throw new Failed(`Unknown argument ${argv[i]}.\n${USAGE}`);
  }
  if (!base) throw new Failed(`No base URL.\n${USAGE}`);
  if (!env.OPERATOR_TOKEN) throw new Failed(`OPERATOR_TOKEN is not set.\n${USAGE}`);
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(new URL(base).hostname);
  return { base, token: env.OPERATOR_TOKEN, eventUrl, local };
}

const clip = (text) => (text.length > 600 ? `${text.slice(0, 600)}…` : text);

/** One HTTP call; the answer's status, parsed JSON (or undefined) and text. */
async function request(base, method, route, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const url = route.startsWith("http") ? route : base + route;
  let res;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_MS),
    });
  } catch (error) {
    throw new Failed(`${method} ${route}: no answer (${error.cause?.code ?? error.message})`);
  }
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, json, text, route: `${method} ${route}` };
}

/** The answer's JSON when its status is `status`. @throws {Failed} naming both */
function expectStatus(answer, status) {
  if (answer.status !== status) {
    throw new Failed(
      `${answer.route}: expected ${status}, got ${answer.status}: ${clip(answer.text)}`,
    );
  }
  return answer.json;
}

/** @throws {Failed} unless `actual` equals `expected` */
function expectEqual(what, actual, expected) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Failed(
      `${what}: expected ${JSON.stringify(expected)}, got ${clip(JSON.stringify(actual) ?? "nothing")}`,
    );
  }
}

/** A receiver of event deliveries on 127.0.0.1 (local targets only). */
function startReceiver() {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/smoke-events`,
        received,
        close: () => server.close(),
      });
    });
  });
}

/**
 * The agent's reply to one message over the chat socket (docs/api/conversations.md#replies):
 * resolves with the agent's `message` frame that follows the person's own.
 */
function chatReply(socketUrl, text) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(socketUrl);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Failed(`chat: expected the agent's reply within ${REPLY_MS / 1000} s, got none`));
    }, REPLY_MS);
    const done = (settle, value) => {
      clearTimeout(timer);
      socket.close();
      settle(value);
    };
    let echoed = false;
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "message", text })));
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data));
      if (frame.type === "error") {
        done(
          reject,
          new Failed(`chat: expected the agent's reply, got error ${JSON.stringify(frame.error)}`),
        );
      } else if (frame.type === "message" && frame.message.role === "person") echoed = true;
      else if (frame.type === "message" && frame.message.role === "agent" && echoed) {
        done(resolve, frame.message);
      }
    });
    socket.addEventListener("close", (event) =>
      done(
        reject,
        new Failed(`chat: expected the agent's reply, got the socket closed (${event.code})`),
      ),
    );
    socket.addEventListener("error", () =>
      done(
        reject,
        new Failed(`chat: expected the socket to open at ${socketUrl.split("?")[0]}, got an error`),
      ),
    );
  });
}

/**
 * Runs every step, then deletes the workspace (always, once one was made).
 * @returns {Promise<number>} 0 when every step passed, 1 otherwise
 */
async function smoke({ base, token, eventUrl, local }) {
  const started = Date.now();
  const call = (method, route, options) => request(base, method, route, options);
  let failed = false;
  const step = async (title, run) => {
    const at = Date.now();
    try {
      const note = await run();
      console.log(`[smoke] ✓ ${title}${note ? `: ${note}` : ""} (${Date.now() - at} ms)`);
    } catch (error) {
      console.error(
        `[smoke] ✗ ${title} (${Date.now() - at} ms)\n        ${error instanceof Failed ? error.message : error.stack}`,
      );
      throw error;
    }
  };
  const run = randomBytes(4).toString("hex");
  const s = {};
  const receiver = !eventUrl && local ? await startReceiver() : undefined;
  let cleaning;
  /** Deletes the workspace once, if one was made; false when that failed. */
  const cleanUp = () => {
    cleaning ??= (async () => {
      receiver?.close();
      // Stopped while the workspace was being made: its answer says which one to delete.
      const made = await s.creating?.catch(() => undefined);
      if (made?.status === 201) {
        s.workspaceId ??= made.json?.workspace?.id;
        s.member ??= made.json?.memberToken;
      }
      if (!s.workspaceId) return true;
      try {
        await step("throwaway workspace deleted", async () => {
          expectStatus(
            await call("DELETE", `/v1/operator/workspaces/${s.workspaceId}`, { token }),
            204,
          );
          expectStatus(await call("GET", "/v1/manage/agents", { token: s.member }), 401);
        });
        return true;
      } catch {
        console.error(`[smoke] Delete it by hand: DELETE /v1/operator/workspaces/${s.workspaceId}`);
        return false;
      }
    })();
    return cleaning;
  };
  // Stopped half-way (Ctrl-C, a CI timeout): the workspace goes all the same.
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      console.error(`[smoke] ${signal}: cleaning up`);
      void cleanUp().then(() => process.exit(1));
    });
  }
  console.log(`[smoke] ${base}, run ${run}`);
  try {
    await step("service up (GET /health)", async () => {
      expectStatus(await call("GET", "/health"), 200);
    });
    await step("static assets served (/widget.js and the script it loads)", async () => {
      const loader = await call("GET", "/widget.js");
      expectStatus(loader, 200);
      const script = /\/assets\/widget-[\w-]+\.js/.exec(loader.text)?.[0];
      if (!script)
        throw new Failed(`GET /widget.js: expected the widget loader, got ${clip(loader.text)}`);
      expectStatus(await call("GET", script), 200);
      return script;
    });
    await step("throwaway workspace created", async () => {
      s.creating = call("POST", "/v1/operator/workspaces", {
        token,
        body: { name: `Smoke ${run}`, owner: { email: `smoke-${run}@example.com`, name: "Smoke" } },
      });
      const created = expectStatus(await s.creating, 201);
      s.workspaceId = created.workspace.id;
      s.member = created.memberToken;
      return s.workspaceId;
    });
    await step("agent with a widget channel and a widget key", async () => {
      const agent = expectStatus(
        await call("POST", "/v1/manage/agents", {
          token: s.member,
          body: {
            name: "Smoke agent",
            mode: "initiator",
            greeting: "Hello {{participant.name}}!",
            parameters: [{ name: "plan", type: "string", required: true }],
          },
        }),
        201,
      );
      const channel = expectStatus(
        await call("POST", `/v1/manage/agents/${agent.id}/channels`, {
          token: s.member,
          body: { type: "widget", name: "Smoke" },
        }),
        201,
      );
      const key = expectStatus(
        await call("POST", "/v1/manage/widget-keys", { token: s.member, body: { name: "smoke" } }),
        201,
      );
      Object.assign(s, { agentId: agent.id, channelId: channel.id, key: key.key });
    });
    await step("link created", async () => {
      const link = expectStatus(
        await call("POST", "/v1/widget/launches", {
          token: s.key,
          body: {
            flowId: s.agentId,
            channelId: s.channelId,
            parameters: { plan: "smoke" },
            participant: { name: "Smoke", externalId: `smoke-${run}` },
          },
        }),
        201,
      );
      Object.assign(s, { linkId: link.id, linkToken: link.token });
      return link.id;
    });
    await step("link looked up", async () => {
      const found = expectStatus(
        await call("GET", `/v1/widget/launches/${s.linkId}`, { token: s.key }),
        200,
      );
      expectEqual("the link's status", found.status, "pending");
    });
    await step("link opened (POST /v1/chat/sessions)", async () => {
      const session = expectStatus(
        await call("POST", "/v1/chat/sessions", { body: { token: s.linkToken } }),
        200,
      );
      expectEqual("the greeting", session.messages[0]?.text, "Hello Smoke!");
      if (!session.socketUrl) throw new Failed("the session: expected a socketUrl, got none");
      s.socketUrl = session.socketUrl;
    });
    await step("chat reply over the socket", async () => {
      const reply = await chatReply(s.socketUrl, "Hello from the smoke test");
      return `${reply.text.length} characters`;
    });
    await step("workflow's webhook answered (lastNode)", async () => {
      const flow = expectStatus(
        await call("POST", "/v1/manage/workflows", {
          token: s.member,
          body: {
            name: "Smoke",
            slug: `smoke-${run}`,
            nodes: [
              { type: "webhook", responseMode: "lastNode" },
              { key: "answer", type: "set", fields: { echo: "{{webhook_1.body.ping}}" } },
            ],
            connections: [{ from: "webhook_1", to: "answer" }],
          },
        }),
        201,
      );
      expectStatus(
        await call("POST", `/v1/manage/workflows/${flow.id}/start`, { token: s.member }),
        200,
      );
      const answer = expectStatus(
        await call("POST", flow.webhookUrls.webhook_1, { body: { ping: run } }),
        200,
      );
      expectEqual("the webhook's answer", answer, { echo: run });
    });
    await step("event endpoint's test event delivered", async () => {
      const url = eventUrl ?? receiver?.url;
      if (!url) return "skipped: a deployed service needs --event-url or SMOKE_EVENT_URL";
      const endpoint = expectStatus(
        await call("POST", "/v1/manage/event-endpoints", { token: s.member, body: { url } }),
        201,
      );
      const delivery = expectStatus(
        await call("POST", `/v1/manage/event-endpoints/${endpoint.id}/test`, { token: s.member }),
        200,
      );
      expectEqual("the test event's delivery", delivery.status, "succeeded");
      if (!receiver) return `answered ${delivery.attempts.at(-1)?.responseStatus}`;
      const got = receiver.received.at(-1);
      const event = got && new Webhook(endpoint.secret).verify(got.body, got.headers);
      expectEqual("the event received", event?.type, "event.test");
      return "signature verified";
    });
  } catch {
    failed = true;
  } finally {
    if (!(await cleanUp())) failed = true;
  }
  const total = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.log(failed ? `[smoke] FAILED (${total})` : `[smoke] passed (${total})`);
  return failed ? 1 : 0;
}

let parsed;
try {
  parsed = options(process.argv.slice(2), process.env);
} catch (error) {
  console.error(`[smoke] ${error.message}`);
  process.exit(2);
}
process.exit(await smoke(parsed));
