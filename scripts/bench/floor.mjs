// The runtime's floor (docs/performance.md#the-runtimes-floor): what the same workerd charges for
// the steps a call of ours cannot skip, with none of our code. A reference Worker of a few lines
// and one SQLite-backed Durable Object, served exactly as ours is (Miniflare API, 127.0.0.1, the
// Worker's socket directly, wrangler.toml's compatibility date and flags), measured with the same
// load and the same CPU reading. Each scenario adds steps to one before it (floor-lookup and
// floor-rpc-put each to floor-rpc):
// - floor-health: a request answered with JSON by a bare fetch handler;
// - floor-rpc: the Worker calls a method of the object (a look-up served from the ledger's memory);
// - floor-lookup: floor-rpc with what the contract asks of every look-up and floor-rpc does not
//   do: the key's header read and passed, the call counted in an exact 60 s window per key in the
//   object's memory and its time written within 10 ms (grouped, as every such count is), the
//   answer a string, sent with the four headers every launch API answer carries (RateLimit-Policy,
//   RateLimit, x-request-id, content-type). No key check, cache, route, decision to refuse or
//   pruning of old entries: those are ours;
// - floor-rpc-put: the call carries the request (method, URL, headers, body bytes) and the object
//   stores it with one `put` (a webhook call, whose record the runner must keep);
// - floor-rpc-d1: the object reads one D1 row by primary key (a look-up the ledger's cache misses);
// - floor-rpc-d1-write: the Worker parses a create's JSON body and the call carries the row built
//   from it; the object inserts it into a D1 table of the links table's columns (a create, whose
//   one D1 statement is a write: the read above bounds it from below).
// And, apart, floor-chat: a message on a hibernatable socket, stored with one SQL insert and echoed,
// a model request whose server-sent events come back as a delta frame each, and the reply stored
// and sent whole (a chat round trip, with the chat scenario's model stand-in).

import { serveWorker, wranglerWorkerOptions } from "./workerd.mjs";
import { HOOK_BODY, WEBHOOK_SECRET } from "./workflows.mjs";

/** The reference Worker: every step done the plainest way the runtime offers. */
const FLOOR_WORKER = `
import { DurableObject } from "cloudflare:workers";

// The limit our look-ups run with in the bench (scripts/bench/workerd.mjs's benchVars).
const LOOKUP_LIMIT = 999999999;
// A look-up's answer: a link's view of the size ours sends.
const VIEW = JSON.stringify({
  id: "lnk_0123456789012345678901", status: "pending", flowId: "agt_0123456789012345678901",
  channelId: "ch_0123456789012345678901", participant: { name: "Ada", externalId: "cus_1" },
  metadata: {}, conversation: null, expiresAt: "2026-12-04T12:00:00.000Z",
  createdAt: "2026-11-27T12:00:00.000Z",
});

export class Floor extends DurableObject {
  n = 0;
  /** floor-lookup's count: each key's accepted call times (ms) in the window, oldest first. */
  windows = new Map();
  /** The times accepted since the last write, by key id. */
  unsaved = new Map();
  written = 0;
  ping() {
    return { ok: true };
  }
  view(key, id, now) {
    // An id for the key, as ours keys its window by the key's id (the floor has no key table).
    const keyId = "wk_" + key.slice(-12);
    let window = this.windows.get(keyId);
    if (!window) this.windows.set(keyId, (window = { times: [], oldest: 0 }));
    while (window.oldest < window.times.length && window.times[window.oldest] <= now - 60000) window.oldest++;
    if (window.oldest > 1024 && window.oldest * 2 > window.times.length) {
      window.times = window.times.slice(window.oldest);
      window.oldest = 0;
    }
    window.times.push(now);
    const first = this.unsaved.size === 0;
    const pending = this.unsaved.get(keyId);
    if (pending) pending.push(now);
    else this.unsaved.set(keyId, [now]);
    if (first) setTimeout(() => this.write(), 10);
    const remaining = Math.max(0, LOOKUP_LIMIT - (window.times.length - window.oldest));
    return remaining + "|" + VIEW;
  }
  write() {
    const entries = {};
    for (const [keyId, times] of this.unsaved) {
      entries["rl/" + keyId + "/" + String(times[times.length - 1]).padStart(15, "0") + "/" + this.written++] = times;
    }
    this.unsaved = new Map();
    this.ctx.storage.put(entries, { allowUnconfirmed: true });
  }
  record(call) {
    this.n++;
    this.ctx.storage.put("r/" + String(this.n).padStart(12, "0"), call, { allowUnconfirmed: true });
    return { ok: true, n: this.n };
  }
  async read(id) {
    return await this.env.DB.prepare("SELECT id, value FROM floor WHERE id = ?").bind(id).first();
  }
  async insert(link) {
    await this.env.DB.prepare(
      "INSERT INTO floor_links (id, workspace_id, flow_id, channel_id, token_hash, status, parameters, participant_name, participant_external_id, metadata, expires_at, created_at, created_by_key) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, '{}', ?, ?, ?)",
    )
      .bind(link.id, "ws", link.flowId, link.channelId, link.tokenHash, JSON.stringify(link.parameters), link.participant?.name ?? null, link.participant?.externalId ?? null, link.expiresAt, link.createdAt, "wk")
      .run();
    return { id: link.id };
  }
}

export class ChatFloor extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS m (seq INTEGER PRIMARY KEY, role TEXT, text TEXT, at INTEGER)");
  }
  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
  async webSocketMessage(ws, data) {
    const { text } = JSON.parse(data);
    const send = (frame) => ws.send(JSON.stringify(frame));
    const store = (role, text) => {
      const at = Date.now();
      this.ctx.storage.sql.exec("INSERT INTO m (role, text, at) VALUES (?, ?, ?)", role, text, at);
      return { id: crypto.randomUUID(), role, text, at };
    };
    send({ type: "message", message: store("person", text) });
    const response = await fetch(this.env.MODEL_URL + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: text }] }),
    });
    const id = crypto.randomUUID();
    let reply = "";
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      const events = (rest + decoder.decode(chunk, { stream: true })).split("\\n\\n");
      rest = events.pop();
      for (const event of events) {
        const json = event.slice("data: ".length);
        if (json === "[DONE]") continue;
        const piece = JSON.parse(json).choices[0]?.delta?.content ?? "";
        reply += piece;
        send({ type: "delta", id, text: piece });
      }
    }
    send({ type: "message", message: store("agent", reply) });
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return Response.json({ ok: true });
    if (pathname.startsWith("/chat/")) return env.CHAT.get(env.CHAT.idFromName(pathname)).fetch(request);
    // A stub per request, as ours: one cannot outlive the request that made it.
    const stub = env.FLOOR.get(env.FLOOR.idFromName("floor"));
    if (pathname === "/rpc") return Response.json(await stub.ping());
    if (pathname.startsWith("/lookup/")) {
      const key = request.headers.get("authorization");
      const answer = await stub.view(key, pathname.slice(8), Date.now());
      const bar = answer.indexOf("|");
      return new Response(answer.slice(bar + 1), {
        headers: {
          "RateLimit-Policy": '"widget-key";q=' + LOOKUP_LIMIT + ";w=60",
          RateLimit: '"widget-key";r=' + answer.slice(0, bar) + ";t=60",
          "x-request-id": "req_" + crypto.randomUUID().replaceAll("-", ""),
          "content-type": "application/json",
        },
      });
    }
    if (pathname === "/rpc-put") {
      const body = new Uint8Array(await request.arrayBuffer());
      const headers = Object.fromEntries(request.headers);
      return Response.json(await stub.record({ method: request.method, url: request.url, headers, body }));
    }
    if (pathname === "/rpc-d1") return Response.json(await stub.read("row-" + (Math.random() * 1000 | 0)));
    if (pathname === "/rpc-d1-write") {
      const launch = await request.json();
      const now = Date.now();
      const link = { ...launch, id: crypto.randomUUID(), tokenHash: crypto.randomUUID(), expiresAt: now + 604800000, createdAt: now };
      return Response.json(await stub.insert(link), { status: 201 });
    }
    return new Response("not found", { status: 404 });
  },
};
`;

/**
 * Starts the reference Worker on 127.0.0.1:`port` with a D1 table of 1,000 rows, its chat object
 * talking to the model stand-in at `modelUrl`; the same shape as `startWorkerd`'s server.
 * @param {{ port: number, inspectorPort?: number, modelUrl?: string }} options
 */
export async function startFloor({ port, inspectorPort, modelUrl }) {
  const { compatibilityDate, compatibilityFlags } = wranglerWorkerOptions();
  const worker = {
    name: "floor",
    modules: true,
    script: FLOOR_WORKER,
    compatibilityDate,
    compatibilityFlags,
    durableObjects: {
      FLOOR: { className: "Floor", useSQLite: true },
      CHAT: { className: "ChatFloor", useSQLite: true },
    },
    ...(modelUrl ? { bindings: { MODEL_URL: modelUrl } } : {}),
    d1Databases: ["DB"],
  };
  const server = await serveWorker({ worker, port, inspectorPort });
  const db = await server.mf.getD1Database("DB");
  await db.exec("CREATE TABLE floor (id TEXT PRIMARY KEY, value TEXT NOT NULL)");
  await db.exec(
    "CREATE TABLE floor_links (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, flow_id TEXT NOT NULL, channel_id TEXT NOT NULL, token_hash TEXT NOT NULL, status TEXT NOT NULL, parameters TEXT NOT NULL, participant_name TEXT, participant_external_id TEXT, global_task TEXT, metadata TEXT NOT NULL DEFAULT '{}', expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL, created_by_key TEXT NOT NULL, session_id TEXT, started_at INTEGER, ended_at INTEGER, revoked_at INTEGER, analysis TEXT, rating_score INTEGER, rating_comment TEXT, rated_at INTEGER)",
  );
  // D1 takes statements of at most 100 KB: 100 rows each.
  const inserts = Array.from({ length: 10 }, (_, chunk) => {
    const rows = Array.from(
      { length: 100 },
      (_, n) => `('row-${chunk * 100 + n}', '${"x".repeat(400)}')`,
    );
    return db.prepare(`INSERT INTO floor (id, value) VALUES ${rows.join(",")}`);
  });
  await db.batch(inserts);
  return server;
}

/**
 * The floor's scenarios after its health reference; floor-rpc-put sends the webhook bench's call,
 * floor-rpc-d1-write the create bench's body.
 */
export const floorScenarios = [
  { name: "floor-rpc", expect: 200, request: { method: "GET", path: "/rpc" } },
  {
    name: "floor-lookup",
    expect: 200,
    request: {
      method: "GET",
      path: "/lookup/lnk_0123456789012345678901",
      // The look-up scenario's headers, with a key of a widget key's length.
      headers: {
        authorization: `Bearer wk_live_${"0".repeat(38)}`,
        "content-type": "application/json",
      },
    },
  },
  {
    name: "floor-rpc-put",
    expect: 200,
    request: {
      method: "POST",
      path: "/rpc-put",
      headers: { "content-type": "application/json", "x-webhook-secret": WEBHOOK_SECRET },
      body: HOOK_BODY,
    },
  },
  { name: "floor-rpc-d1", expect: 200, request: { method: "GET", path: "/rpc-d1" } },
  {
    name: "floor-rpc-d1-write",
    expect: 201,
    request: {
      method: "POST",
      path: "/rpc-d1-write",
      headers: { "content-type": "application/json" },
      // The create scenario's body (scripts/bench/launch.mjs), with ids of the same length.
      body: JSON.stringify({
        flowId: "agt_0123456789012345678901",
        channelId: "ch_0123456789012345678901",
        parameters: { plan: "pro", tier: "pro", seats: 3 },
        participant: { name: "Ada", externalId: "cus_1" },
      }),
    },
  },
];
