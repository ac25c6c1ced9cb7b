// The runtime's floor (docs/performance.md#the-runtimes-floor): what the same workerd charges for
// the steps a call of ours cannot skip, with none of our code. A reference Worker of a few lines
// and one SQLite-backed Durable Object, served exactly as ours is (Miniflare API, 127.0.0.1, the
// Worker's socket directly, wrangler.toml's compatibility date and flags), measured with the same
// load and the same CPU reading. Each scenario adds one step to the one before:
// - floor-health: a request answered with JSON by a bare fetch handler;
// - floor-rpc: the Worker calls a method of the object (a look-up served from the ledger's memory);
// - floor-rpc-put: the call carries the request (method, URL, headers, body bytes) and the object
//   stores it with one `put` (a webhook call, whose record the runner must keep);
// - floor-rpc-d1: the object reads one D1 row by primary key (a look-up the ledger's cache misses).

import { serveWorker, wranglerWorkerOptions } from "./workerd.mjs";
import { HOOK_BODY, WEBHOOK_SECRET } from "./workflows.mjs";

/** The reference Worker: every step done the plainest way the runtime offers. */
const FLOOR_WORKER = `
import { DurableObject } from "cloudflare:workers";

export class Floor extends DurableObject {
  n = 0;
  ping() {
    return { ok: true };
  }
  record(call) {
    this.n++;
    this.ctx.storage.put("r/" + String(this.n).padStart(12, "0"), call, { allowUnconfirmed: true });
    return { ok: true, n: this.n };
  }
  async read(id) {
    return await this.env.DB.prepare("SELECT id, value FROM floor WHERE id = ?").bind(id).first();
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return Response.json({ ok: true });
    // A stub per request, as ours: one cannot outlive the request that made it.
    const stub = env.FLOOR.get(env.FLOOR.idFromName("floor"));
    if (pathname === "/rpc") return Response.json(await stub.ping());
    if (pathname === "/rpc-put") {
      const body = new Uint8Array(await request.arrayBuffer());
      const headers = Object.fromEntries(request.headers);
      return Response.json(await stub.record({ method: request.method, url: request.url, headers, body }));
    }
    if (pathname === "/rpc-d1") return Response.json(await stub.read("row-" + (Math.random() * 1000 | 0)));
    return new Response("not found", { status: 404 });
  },
};
`;

/**
 * Starts the reference Worker on 127.0.0.1:`port` with a D1 table of 1,000 rows; the same shape
 * as `startWorkerd`'s server.
 * @param {{ port: number, inspectorPort?: number }} options
 */
export async function startFloor({ port, inspectorPort }) {
  const { compatibilityDate, compatibilityFlags } = wranglerWorkerOptions();
  const worker = {
    name: "floor",
    modules: true,
    script: FLOOR_WORKER,
    compatibilityDate,
    compatibilityFlags,
    durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
    d1Databases: ["DB"],
  };
  const server = await serveWorker({ worker, port, inspectorPort });
  const db = await server.mf.getD1Database("DB");
  await db.exec("CREATE TABLE floor (id TEXT PRIMARY KEY, value TEXT NOT NULL)");
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

/** The floor's scenarios after its health reference; floor-rpc-put sends the webhook bench's call. */
export const floorScenarios = [
  { name: "floor-rpc", expect: 200, request: { method: "GET", path: "/rpc" } },
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
];
