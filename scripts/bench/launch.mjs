// The launch API's scenarios: create, create with an event endpoint listening, look-up, revoke,
// an idempotent replay and list (a search by one person in a workspace of BENCH_LIST_LINKS links,
// put into D1 directly). Look-up and revoke walk the newest links create made; lookup-uncached
// walks those put into D1, which no ledger has cached.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { seedDemoWorkspace } from "../demo-seed.mjs";
import { fetchApi } from "../local-server.mjs";
import { post } from "./workflows.mjs";

/** Bounds the collected ids whatever the create rate. */
const MAX_IDS = 2_000_000;
/** One person in a thousand: the list's filter matches 1 in 1,000 of the links. */
const LIST_EXTERNAL_ID = "cus_42";
/** An agent (deleted since: no such agent is seeded) with 1 in 100 of the links put into D1. */
const RARE_FLOW_ID = "agt_benchRare";
/** A state 1 in 100 of the links put into D1 are in; the others ended. */
const RARE_STATUS = "revoked";

/** The list's scenarios, `[name, query]`: each filter over the links `insertLinks` put into D1. */
export const LIST_SCENARIOS = [
  ["list", `externalId=${LIST_EXTERNAL_ID}`],
  ["list-newest", ""],
  ["list-flow", `flowId=${RARE_FLOW_ID}`],
  ["list-status", `status=${RARE_STATUS}`],
  // The links create made (none when it did not run first).
  ["list-pending", "status=pending"],
];

/** A receiver of lifecycle events on 127.0.0.1 that answers 204; counts what it received. */
export const eventReceiver = { received: 0, server: null };

async function receiverUrl() {
  if (!eventReceiver.server) {
    eventReceiver.server = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        eventReceiver.received++;
        response.writeHead(204).end();
      });
    });
    await new Promise((resolve) => eventReceiver.server.listen(0, "127.0.0.1", resolve));
    eventReceiver.server.unref();
  }
  return `http://127.0.0.1:${eventReceiver.server.address().port}/events`;
}

/**
 * The demo workspace and a second one whose event endpoint listens to every event (so each of its
 * creates also writes an event and a delivery that the queue consumer signs and sends).
 */
export async function seedLaunch(base, operatorToken) {
  const ws = await seedDemoWorkspace(fetchApi(base), operatorToken);
  const other = await seedDemoWorkspace(fetchApi(base), operatorToken);
  const url = await receiverUrl();
  await post(base, "/v1/manage/event-endpoints", other.memberToken, { url });
  const keys = await fetchApi(base)("GET", "/v1/manage/widget-keys", { token: ws.memberToken });
  return { ...ws, keyId: keys.json.data[0]?.id, withEvents: other };
}

/** The id of the `n`th link `insertLinks` put into D1. */
const insertedLinkId = (n) => `lnk_bench${String(n).padStart(14, "0")}`;
/** Look-up and revoke walk at most this many of the newest links, well within the ledger's cache. */
const RECENT_LINKS = 10_000;

/**
 * Puts `count` links into D1 through the binding, created a second apart: one person
 * (`cus_<n mod 1000>`) per thousand; ended, but 1 in 100 revoked; of the seeded agent, but 1 in
 * 100 of another. Each filter of the list then picks a thousandth or a hundredth of them.
 * @param {import("miniflare").Miniflare} mf
 */
export async function insertLinks(mf, { workspaceId, agentId, channelId, keyId }, count) {
  const db = await mf.getD1Database("DB");
  const columns =
    "id,workspace_id,flow_id,channel_id,token_hash,status,parameters,participant_name,participant_external_id,global_task,metadata,expires_at,created_at,created_by_key";
  const now = Date.now();
  const statements = [];
  // D1 takes statements of at most 100 KB: 100 rows each.
  for (let start = 0; start < count; start += 100) {
    const rows = [];
    for (let n = start; n < Math.min(count, start + 100); n++) {
      const id = insertedLinkId(n);
      const hash = randomBytes(32).toString("hex");
      const flow = n % 100 === 7 ? RARE_FLOW_ID : agentId;
      const status = n % 100 === 50 ? RARE_STATUS : "ended";
      rows.push(
        `('${id}','${workspaceId}','${flow}','${channelId}','${hash}','${status}','{}',NULL,'cus_${n % 1000}',NULL,'{}',${now + 86_400_000},${now - (count - n) * 1000},'${keyId}')`,
      );
    }
    statements.push(db.prepare(`INSERT INTO links (${columns}) VALUES ${rows.join(",")}`));
  }
  for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
}

/**
 * The launch scenarios, as `{ name, expect, request, needsIds? }`. `plan.ids` collects what create
 * made; look-up and revoke walk it (`plan.cursor`).
 */
export function launchScenarios(seeded) {
  const headers = {
    authorization: `Bearer ${seeded.widgetKey}`,
    "content-type": "application/json",
  };
  const ids = [];
  const cursor = { lookup: 0, revoke: 0, uncached: 0 };
  // Newest first, within the ledger's cache of recent links (20,000): a link looked up or revoked
  // soon after it was made, as an integration does.
  const recent = (method, name) => ({
    method,
    headers,
    setupRequest(req) {
      const back = cursor[name]++ % Math.min(ids.length, RECENT_LINKS);
      req.path = `/v1/widget/launches/${ids[ids.length - 1 - back]}`;
      return req;
    },
  });
  // The links put into D1 directly, which no ledger has seen: each look-up reads D1 (until they
  // have all been looked up once; BENCH_LIST_LINKS of them).
  const uncached = {
    method: "GET",
    headers,
    setupRequest(req) {
      const n = cursor.uncached++ % Math.max(1, seeded.insertedLinks ?? 0);
      req.path = `/v1/widget/launches/${insertedLinkId(n)}`;
      return req;
    },
  };
  const launch = (ws) =>
    JSON.stringify({
      flowId: ws.agentId,
      channelId: ws.channelId,
      parameters: { plan: "pro", tier: "pro", seats: 3 },
      participant: { name: "Ada", externalId: "cus_1" },
    });
  const create = {
    method: "POST",
    path: "/v1/widget/launches",
    headers,
    body: launch(seeded),
    onResponse(status, text) {
      if (status === 201 && ids.length < MAX_IDS) ids.push(JSON.parse(text).id);
    },
  };
  const withEvents = {
    method: "POST",
    path: "/v1/widget/launches",
    headers: { ...headers, authorization: `Bearer ${seeded.withEvents.widgetKey}` },
    body: launch(seeded.withEvents),
  };
  const list = [
    { name: "create", expect: 201, request: create },
    { name: "create-with-events", expect: 201, request: withEvents },
    { name: "lookup", expect: 200, request: recent("GET", "lookup"), needsIds: true },
    { name: "revoke", expect: 204, request: recent("DELETE", "revoke"), needsIds: true },
    // After revoke: run before it, revoke found its links no longer in the ledger's cache.
    { name: "lookup-uncached", expect: 200, request: uncached },
    {
      name: "idempotent-replay",
      expect: 201,
      request: { ...create, headers: { ...headers, "idempotency-key": "bench-replay" } },
    },
    // The list, each filter over the links put into D1 (docs/api/launch.md#listing-links).
    ...LIST_SCENARIOS.map(([name, query]) => ({
      name,
      expect: 200,
      request: { method: "GET", path: `/v1/widget/launches?${query}`, headers },
    })),
  ];
  return { ids, cursor, list };
}
