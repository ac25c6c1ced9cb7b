/**
 * Benchmark (`npm run bench`): the launch API (create, look-up and revoke of widget launch links)
 * and the webhook trigger (immediate, and lastNode through webhook → condition → set), then a hold
 * test: HOLD_CALLERS (1,000) concurrent lastNode callers waiting on a `wait` node, with the memory
 * (RSS of workerd) it takes.
 *
 * Each scenario is reported as a percentage of `GET /health` (no I/O) measured in the same run, so
 * the figures show what the API itself costs on top of the runtime, whatever this machine's speed.
 * Each also gets the CPU time workerd spent per request (user + system, from /proc), which moves
 * less than req/s when the machine is shared.
 *
 * How: starts the service as `npm run dev` and the browser tests do (scripts/local-server.mjs:
 * fresh temporary state, 127.0.0.1, a free port or BENCH_PORT) with the rate limit and the pending
 * cap lifted to 1e9 through `--var` (the checks still run), seeds the demo workspace
 * (scripts/demo-seed.mjs) and the bench's workflows through the HTTP API, then drives each scenario with autocannon: a 2 s warm-up that is not recorded, then
 * BENCH_SECONDS (10) with BENCH_CONNECTIONS (32). Revoke walks the links create collected, topped
 * up beforehand so that every revoke finds a pending link. Idempotent replay repeats one create
 * with one Idempotency-Key (every call after the first is a replay); list searches a workspace of
 * BENCH_LIST_LINKS (100,000) links, put into D1 directly, by one person's externalId. Webhook nodes get rateLimitPerMinute
 * 100,000 (the most a node allows; the check still runs). Prints a table, writes bench-results/bench.json.
 * Exit code 0 once measured, even when a target fails; 1 when the server or the seeding failed.
 */
import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { seedDemoWorkspace } from "./demo-seed.mjs";
import { choosePort, fetchApi, startLocalServer } from "./local-server.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 10);
const CONNECTIONS = positiveInt(process.env.BENCH_CONNECTIONS, 32);
const WARMUP_SECONDS = 2;
const MAX_IDS = 2_000_000; // bounds the collected ids whatever the create rate
/** Least req/s of each scenario as a percentage of the reference's; all need zero 5xx. */
const TARGETS = {
  create: 35,
  "create-with-events": 35,
  "idempotent-replay": 35,
  list: 35,
  lookup: 50,
  revoke: 40,
  "webhook-immediate": 50,
  "webhook-immediate-github": 45,
  "webhook-immediate-dedupe": 45,
  "webhook-lastNode": 35,
};
const HOLD_CALLERS =
  process.env.BENCH_HOLD_CALLERS === "0" ? 0 : positiveInt(process.env.BENCH_HOLD_CALLERS, 1000);
/**
 * BENCH_ONLY=create,webhook-immediate runs just those (and the reference); `browser` names the
 * browser's measures (scripts/bench-browser.mjs); BENCH_HOLD_CALLERS=0 skips the hold.
 */
const ONLY = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const HOLD_WAIT_SECONDS = 5;
/** Links put into the launch group's workspace before it is measured, for the list scenario. */
const LIST_LINKS = positiveInt(process.env.BENCH_LIST_LINKS, 100_000);
/** One person in a thousand: the list scenario's filter matches 100 of the 100,000 links. */
const LIST_EXTERNAL_ID = "cus_42";
const RESULTS_FILE = path.join(ROOT, "bench-results", "bench.json");

function positiveInt(value, fallback) {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

const _sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The running server of the current group (scripts/local-server.mjs). */
let server;

/** Latest change under src/, migrations/ and wrangler.toml: wrangler dev reloads on any of them. */
function sourcesChangedAt() {
  const list = (dir) => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f));
  const files = [...list(path.join(ROOT, "src")), ...list(path.join(ROOT, "migrations"))];
  files.push(path.join(ROOT, "wrangler.toml"));
  const mtime = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Math.max(...files.slice(0, 10_000).map(mtime)); // a file may vanish while listed
}

/** BENCH_PORT as given (an error if taken), or any free port but 8787 (`npm run dev`'s). */
function benchPort() {
  return process.env.BENCH_PORT ? positiveInt(process.env.BENCH_PORT, 8788) : undefined;
}

async function stopServer() {
  await server?.stop();
  server = undefined;
}

/** Seeding call: sends JSON, throws unless the expected status. */
async function post(base, route, token, body, { method = "POST", expect = 201 } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== expect)
    throw new Error(`${method} ${route} → ${res.status}, not ${expect}: ${text}`);
  return text ? JSON.parse(text) : null;
}

const WEBHOOK_SECRET = randomBytes(24).toString("base64url");
const hookNode = (settings) => ({ type: "webhook", rateLimitPerMinute: 100_000, ...settings });
/** The spec's example shape: webhook → condition on the shared secret → set. */
const LAST_NODE = {
  nodes: [
    hookNode({ responseMode: "lastNode" }),
    {
      key: "check",
      type: "condition",
      left: "{{webhook_1.headers.x-webhook-secret}}",
      operator: "equals",
      right: "{{secrets.WEBHOOK_SECRET}}",
    },
    { key: "ok", type: "set", fields: { ok: true, orderId: "{{webhook_1.body.orderId}}" } },
    { key: "refused", type: "set", fields: { ok: false } },
  ],
  connections: [
    { from: "webhook_1", to: "check" },
    { from: "check", to: "ok", branch: "true" },
    { from: "check", to: "refused", branch: "false" },
  ],
};
const IMMEDIATE = {
  nodes: [
    hookNode({}),
    { key: "ok", type: "set", fields: { orderId: "{{webhook_1.body.orderId}}" } },
  ],
  connections: [{ from: "webhook_1", to: "ok" }],
};
/** IMMEDIATE behind a GitHub signature check (docs/webhooks.md#github). */
const GITHUB_SECRET = randomBytes(24).toString("base64url");
const IMMEDIATE_GITHUB = {
  ...IMMEDIATE,
  nodes: [
    hookNode({ verify: { preset: "github", secret: "{{secrets.GITHUB_SECRET}}" } }),
    ...IMMEDIATE.nodes.slice(1),
  ],
};
/** IMMEDIATE with deduplication on a delivery header that each bench request sets afresh. */
const IMMEDIATE_DEDUPE = {
  ...IMMEDIATE,
  nodes: [
    hookNode({ dedupe: { key: "{{webhook_1.headers.x-delivery}}" } }),
    ...IMMEDIATE.nodes.slice(1),
  ],
};
const HOLD = {
  nodes: [
    hookNode({ responseMode: "lastNode", responseTimeoutSeconds: 100 }),
    { key: "pause", type: "wait", seconds: HOLD_WAIT_SECONDS },
    { key: "ok", type: "set", fields: { ok: true, n: "{{webhook_1.body.n}}" } },
  ],
  connections: [
    { from: "webhook_1", to: "pause" },
    { from: "pause", to: "ok" },
  ],
};

/** Creates and starts a workflow; returns its webhook's path. */
async function runningWorkflow(base, token, slug, definition) {
  const created = await post(base, "/v1/manage/workflows", token, {
    name: slug,
    slug,
    ...definition,
  });
  await post(base, `/v1/manage/workflows/${created.id}/start`, token, undefined, { expect: 200 });
  return new URL(created.webhookUrls.webhook_1).pathname;
}

/**
 * A receiver of lifecycle events on 127.0.0.1 that answers 204, for `create-with-events`: its
 * workspace has an endpoint listening to every event, so each create also writes an event and a
 * delivery, and the queue consumer signs and sends it while the creates are measured.
 */
let eventsReceived = 0;
const eventReceiver = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    eventsReceived++;
    response.writeHead(204).end();
  });
});

/** A second demo workspace whose endpoint listens to every event; its widget key and agent. */
async function seedWithEndpoint(base, operatorToken) {
  const api = fetchApi(base);
  const ws = await seedDemoWorkspace(api, operatorToken);
  if (!eventReceiver.listening) {
    await new Promise((resolve) => eventReceiver.listen(0, "127.0.0.1", resolve));
    eventReceiver.unref();
  }
  const url = `http://127.0.0.1:${eventReceiver.address().port}/events`;
  await post(base, "/v1/manage/event-endpoints", ws.memberToken, { url }, { expect: 201 });
  return { flowId: ws.agentId, channelId: ws.channelId, key: ws.widgetKey };
}

/** The demo workspace (the shared seed of scripts/demo-seed.mjs) and the bench's workflows. */
async function seed(base, operatorToken) {
  const ws = await seedDemoWorkspace(fetchApi(base), operatorToken);
  const token = ws.memberToken;
  await post(
    base,
    "/v1/manage/secrets/WEBHOOK_SECRET",
    token,
    { value: WEBHOOK_SECRET },
    { method: "PUT", expect: 204 },
  );
  await post(
    base,
    "/v1/manage/secrets/GITHUB_SECRET",
    token,
    { value: GITHUB_SECRET },
    { method: "PUT", expect: 204 },
  );
  const hooks = {
    immediate: await runningWorkflow(base, token, "bench-immediate", IMMEDIATE),
    github: await runningWorkflow(base, token, "bench-github", IMMEDIATE_GITHUB),
    dedupe: await runningWorkflow(base, token, "bench-dedupe", IMMEDIATE_DEDUPE),
    lastNode: await runningWorkflow(base, token, "bench-last-node", LAST_NODE),
    hold: await runningWorkflow(base, token, "bench-hold", HOLD),
  };
  const keys = await fetchApi(base)("GET", "/v1/manage/widget-keys", { token });
  const keyId = keys.json.data[0]?.id;
  return {
    workspaceId: ws.workspaceId,
    flowId: ws.agentId,
    channelId: ws.channelId,
    key: ws.widgetKey,
    keyId,
    hooks,
    withEvents: await seedWithEndpoint(base, operatorToken),
  };
}

/**
 * Puts `count` ended links of the seeded agent into the workspace's D1 rows directly (through
 * `wrangler d1 execute` on the server's local state), one person (`cus_<n mod 1000>`) per thousand,
 * created a second apart, so the list scenario searches a workspace of that size.
 */
async function insertLinks(persistDir, { workspaceId, flowId, channelId, keyId }, count) {
  const started = Date.now();
  const file = path.join(persistDir, "bench-links.sql");
  const rows = [];
  const now = Date.now();
  for (let n = 0; n < count; n++) {
    const id = `lnk_bench${String(n).padStart(14, "0")}`;
    const hash = randomBytes(32).toString("hex");
    rows.push(
      `('${id}','${workspaceId}','${flowId}','${channelId}','${hash}','ended','{}',NULL,'cus_${n % 1000}',NULL,'{}',${now + 86_400_000},${now - (count - n) * 1000},'${keyId}')`,
    );
  }
  const columns =
    "id,workspace_id,flow_id,channel_id,token_hash,status,parameters,participant_name,participant_external_id,global_task,metadata,expires_at,created_at,created_by_key";
  const statements = [];
  // D1 takes statements of at most 100 KB: 100 rows each.
  for (let i = 0; i < rows.length; i += 100) {
    statements.push(`INSERT INTO links (${columns}) VALUES ${rows.slice(i, i + 100).join(",")};`);
  }
  fs.writeFileSync(file, statements.join("\n"));
  const args = [
    "wrangler",
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    persistDir,
    "--file",
    file,
  ];
  const run = spawnSync("npx", args, {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, CI: "true" },
  });
  if (run.status !== 0)
    throw new Error(`inserting ${count} links failed:\n${run.stdout}${run.stderr}`);
  console.log(
    `bench: ${count} links in the workspace (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/** The four scenarios; look-up and revoke walk the ids that create collected. */
function scenarios({ flowId, channelId, key, hooks, withEvents }, group) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const ids = [];
  const cursor = { lookup: 0, revoke: 0 };
  const byId = (method, name) => ({
    method,
    headers,
    setupRequest(req) {
      req.path = `/v1/widget/launches/${ids[cursor[name]++ % ids.length]}`;
      return req;
    },
  });
  const parameters = { plan: "pro", tier: "pro", seats: 3 };
  const participant = { name: "Ada", externalId: "cus_1" };
  const create = {
    method: "POST",
    path: "/v1/widget/launches",
    headers,
    body: JSON.stringify({ flowId, channelId, parameters, participant }),
    onResponse(status, text) {
      if (status === 201 && ids.length < MAX_IDS) ids.push(JSON.parse(text).id);
    },
  };
  const reference = { name: "reference", expect: 200, request: { method: "GET", path: "/health" } };
  const list =
    group === "launch"
      ? [
          reference,
          { name: "create", expect: 201, request: create },
          {
            name: "create-with-events",
            expect: 201,
            request: {
              method: "POST",
              path: "/v1/widget/launches",
              headers: { ...headers, authorization: `Bearer ${withEvents.key}` },
              body: JSON.stringify({
                flowId: withEvents.flowId,
                channelId: withEvents.channelId,
                parameters,
                participant,
              }),
            },
          },
          { name: "lookup", expect: 200, request: byId("GET", "lookup"), needsIds: true },
          { name: "revoke", expect: 204, request: byId("DELETE", "revoke"), needsIds: true },
          {
            name: "idempotent-replay",
            expect: 201,
            request: { ...create, headers: { ...headers, "idempotency-key": "bench-replay" } },
          },
          {
            name: "list",
            expect: 200,
            request: {
              method: "GET",
              path: `/v1/widget/launches?externalId=${LIST_EXTERNAL_ID}`,
              headers,
            },
          },
        ]
      : [
          reference,
          { name: "webhook-immediate", expect: 200, request: hookRequest(hooks.immediate) },
          {
            // Every request a new delivery: the cost of recording each key.
            name: "webhook-immediate-dedupe",
            expect: 200,
            request: {
              ...hookRequest(hooks.dedupe),
              setupRequest(req) {
                req.headers = { ...req.headers, "x-delivery": `d-${deliveries++}` };
                return req;
              },
            },
          },
          {
            name: "webhook-immediate-github",
            expect: 200,
            request: hookRequest(hooks.github, undefined, {
              "x-hub-signature-256": `sha256=${createHmac("sha256", GITHUB_SECRET).update(hookBody).digest("hex")}`,
            }),
          },
          {
            name: "webhook-lastNode",
            expect: 200,
            request: hookRequest(hooks.lastNode, checkLastNode),
          },
        ];
  const chosen = list.filter((s) => !ONLY || s.name === "reference" || ONLY.includes(s.name));
  // Look-up and revoke need the links that create makes.
  if (chosen.some((s) => s.needsIds) && !chosen.some((s) => s.name === "create"))
    chosen.splice(1, 0, list[1]);
  return { ids, cursor, list: chosen.length > 1 ? chosen : [] };
}

let deliveries = 0;
const hookBody = JSON.stringify({ orderId: 1042, items: [{ sku: "A-1", qty: 2 }] });
let wrongAnswers = 0;
function checkLastNode(status, text) {
  if (status === 200 && text !== '{"ok":true,"orderId":1042}') wrongAnswers++;
}
function hookRequest(pathname, onResponse, extraHeaders = {}) {
  const headers = {
    "content-type": "application/json",
    "x-webhook-secret": WEBHOOK_SECRET,
    ...extraHeaders,
  };
  return {
    method: "POST",
    path: pathname,
    headers,
    body: hookBody,
    ...(onResponse && { onResponse }),
  };
}

/** Resident memory (KiB) of the workerd processes in the server's process group. */
function workerdRssKiB() {
  const ps = spawnSync("ps", ["-o", "rss=,comm=", "-g", String(server.pid)], { encoding: "utf8" });
  let total = 0;
  for (const line of ps.stdout.split("\n")) {
    const [rss, comm] = line.trim().split(/\s+/);
    if (comm?.startsWith("workerd")) total += Number(rss) || 0;
  }
  return total;
}

/** CPU time (ms, user + system) the workerd processes in the server's process group have used. */
function workerdCpuMs() {
  const ps = spawnSync("ps", ["-o", "pid=,comm=", "-g", String(server.pid)], { encoding: "utf8" });
  const ticksPerSecond = 100; // USER_HZ, 100 on every Linux
  let ticks = 0;
  for (const line of ps.stdout.split("\n")) {
    const [pid, comm] = line.trim().split(/\s+/);
    if (!comm?.startsWith("workerd")) continue;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised name; utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
}

/**
 * HOLD_CALLERS concurrent lastNode calls, each held by the runner while its execution waits
 * HOLD_WAIT_SECONDS on a `wait` node (alarm). Bounded: one call per caller, 120 s at most.
 */
async function hold(base, pathname) {
  const before = workerdRssKiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, workerdRssKiB())), 250);
  const started = Date.now();
  const statuses = {};
  let wrong = 0;
  await Promise.all(
    Array.from({ length: HOLD_CALLERS }, async (_, n) => {
      try {
        const res = await fetch(`${base}${pathname}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ n }),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200 && text !== JSON.stringify({ ok: true, n })) wrong++;
      } catch (error) {
        statuses[error.name] = (statuses[error.name] ?? 0) + 1;
      }
    }),
  );
  clearInterval(sampler);
  const row = {
    callers: HOLD_CALLERS,
    waitSeconds: HOLD_WAIT_SECONDS,
    statuses,
    wrongAnswers: wrong,
    seconds: (Date.now() - started) / 1000,
    workerdRssBeforeMiB: before / 1024,
    workerdRssPeakMiB: peak / 1024,
    heldMiBPerThousandCallers: ((peak - before) / 1024) * (1000 / HOLD_CALLERS),
  };
  row.pass = statuses[200] === HOLD_CALLERS && wrong === 0;
  if (!row.pass) console.error(`!!! hold: ${JSON.stringify(statuses)}, ${wrong} wrong answers`);
  return row;
}

/** Drives one request shape for `seconds`, or for `amount` requests when given. */
function drive(base, request, seconds, amount) {
  return new Promise((resolve, reject) => {
    const opts = { url: base, connections: CONNECTIONS, duration: seconds, requests: [request] };
    if (amount !== undefined) opts.amount = amount;
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Creates links (not recorded) until revoke cannot run out of pending ones: revoke is no faster
 * than the reference, so the reference's rate over revoke's warm-up and run is enough. Without
 * it, a fast revoke repeats ids and its figure counts cheaper repeat 204s.
 */
async function topUpLinks(base, plan, referenceRps) {
  const create = plan.list.find((s) => s.name === "create");
  const needed = Math.ceil(referenceRps * (WARMUP_SECONDS + SECONDS));
  const missing = Math.min(
    needed - (plan.ids.length - plan.cursor.revoke),
    MAX_IDS - plan.ids.length,
  );
  // `amount` ends the run; the duration is only an upper bound.
  if (create && missing > 0) await drive(base, create.request, SECONDS * 10, missing);
}

/** The recorded figures of one run, judged against its target; problems are printed loudly. */
function summarize({ name, expect }, r, referenceRps) {
  const statusCodes = {};
  for (const [status, { count }] of Object.entries(r.statusCodeStats)) statusCodes[status] = count;
  const row = {
    scenario: name,
    reqPerSec: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    totalRequests: r.requests.total,
    non2xx: r.non2xx,
    status5xx: r["5xx"],
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    unexpectedStatus: r.requests.total - (statusCodes[expect] ?? 0),
  };
  row.ratioPct = (100 * row.reqPerSec) / referenceRps;
  row.targetPct = TARGETS[name] ?? null;
  row.pass = row.status5xx === 0 && (row.targetPct === null || row.ratioPct >= row.targetPct);
  const loud = (text) => console.error(`!!! ${name}: ${text}`);
  if (row.status5xx) loud(`${row.status5xx} responses were 5xx`);
  if (row.errors) loud(`${row.errors} connection errors (${row.timeouts} timeouts)`);
  if (row.unexpectedStatus)
    loud(`${row.unexpectedStatus} not ${expect}: ${JSON.stringify(statusCodes)}`);
  return row;
}

function printTable(rows) {
  const head = [
    ...["scenario", "req/s", "p50 ms", "p99 ms", "cpu µs/req"],
    ...["5xx", "vs ref", "target", "result"],
  ];
  const lines = rows.map((r) => [
    ...[r.scenario, r.reqPerSec.toFixed(0), r.latencyP50Ms, r.latencyP99Ms],
    (r.workerdCpuMsPerRequest * 1000).toFixed(0),
    r.status5xx,
    `${r.ratioPct.toFixed(1)} %`,
    r.targetPct === null ? "0 5xx" : `>= ${r.targetPct} %`,
    r.pass ? "PASS" : "FAIL",
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  for (const l of [head, ...lines])
    console.log(l.map((v, i) => String(v).padEnd(width[i])).join("  "));
}

/** Runs each scenario (warm-up, then the recorded run) and returns the judged rows. */
async function measure(base, plan) {
  const rows = [];
  for (const s of plan.list) {
    if (s.needsIds && plan.ids.length === 0) throw new Error(`${s.name}: create made no links`);
    if (s.name === "revoke") {
      await topUpLinks(base, plan, rows.findLast((row) => row.scenario === "reference").reqPerSec);
    }
    await drive(base, s.request, WARMUP_SECONDS);
    const revokedBefore = Math.min(plan.cursor.revoke, plan.ids.length);
    const cpuBefore = workerdCpuMs();
    const result = await drive(base, s.request, SECONDS);
    const cpuMs = workerdCpuMs() - cpuBefore;
    const reference = rows.findLast((row) => row.scenario === "reference");
    rows.push(
      summarize(s, result, s.name === "reference" ? result.requests.average : reference.reqPerSec),
    );
    // What the server spends per request, whatever else the machine runs: steadier than req/s.
    rows.at(-1).workerdCpuMsPerRequest = cpuMs / Math.max(1, result.requests.total);
    if (s.name !== "revoke") continue;
    // Revokes past the collected ids are repeats (cheaper 204s); count the ones that did the work.
    const row = rows.at(-1);
    row.pendingLinksRevoked = Math.min(plan.cursor.revoke, plan.ids.length) - revokedBefore;
    if (row.pendingLinksRevoked < row.totalRequests) {
      console.error(`!!! revoke: ${row.pendingLinksRevoked} of ${row.totalRequests} were pending`);
    }
  }
  return rows;
}

/**
 * Each group (the launch API, then webhooks and the hold) gets a fresh server and its own reference:
 * in wrangler dev the Worker and every Durable Object share one isolate, so the heap the launch
 * scenarios leave behind (tens of thousands of cached and pending links) would otherwise tax the
 * webhook scenarios in a way production, where they live apart, would not.
 */
async function runGroup(group, port, vars) {
  // warn: no per-request log lines for wrangler to write while it is being measured.
  server = await startLocalServer({ port, state: "temporary", vars, logLevel: "warn" });
  const base = server.base;
  try {
    const seeded = await seed(base, vars.OPERATOR_TOKEN);
    if (group === "launch") await insertLinks(server.persistDir, seeded, LIST_LINKS);
    const plan = scenarios(seeded, group);
    const rows = plan.list.length > 0 ? await measure(base, plan) : [];
    const held =
      group === "webhooks" && HOLD_CALLERS > 0 ? await hold(base, seeded.hooks.hold) : null;
    // The worker logs each 500's cause; show it next to the figures.
    if (rows.some((r) => r.status5xx))
      console.error(`--- wrangler output (tail):\n${server.output()}`);
    return { rows, held, linksCreated: plan.ids.length };
  } finally {
    // Stopping removes the group's state; the next group should not pay for this one's disk, so
    // the disk absorbs what the stopped server left dirty before the next group is measured.
    await stopServer();
    spawnSync("sync", [], { timeout: 60_000 });
  }
}

/**
 * The CPU of one signature check, measured apart from the noise of a whole request: the service's
 * own `checkSignature` (bundled by esbuild) run 20,000 times (bounded) over the bench's webhook
 * body with Node's Web Crypto, which like workerd's is BoringSSL/OpenSSL HMAC underneath.
 */
async function signatureCost(rows) {
  const { build } = await import("esbuild");
  const bundle = await build({
    entryPoints: [path.join(ROOT, "src/webhooks/signatures.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  // Workers' constant-time compare, which Node's SubtleCrypto lacks.
  const { timingSafeEqual } = await import("node:crypto");
  crypto.subtle.timingSafeEqual ??= (a, b) => timingSafeEqual(a, b);
  const code = bundle.outputFiles[0].text;
  const { checkSignature } = await import(
    `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`
  );
  const settings = { preset: "github", secret: "{{secrets.S}}", toleranceSeconds: 300 };
  const body = new TextEncoder().encode(hookBody);
  const headers = {
    "x-hub-signature-256": `sha256=${createHmac("sha256", GITHUB_SECRET).update(hookBody).digest("hex")}`,
  };
  const request = { url: "https://bench.test/", headers, body };
  for (let i = 0; i < 1_000; i++) await checkSignature(settings, GITHUB_SECRET, request);
  const checks = 20_000;
  const started = process.cpuUsage();
  for (let i = 0; i < checks; i++) {
    if ((await checkSignature(settings, GITHUB_SECRET, request)) !== null)
      throw new Error("bad check");
  }
  const used = process.cpuUsage(started);
  const microsPerCheck = (used.user + used.system) / checks;
  const github = rows.find((row) => row.scenario === "webhook-immediate-github");
  const perRequest = github ? github.workerdCpuMsPerRequest * 1000 : null;
  return {
    checks,
    microsPerCheck,
    shareOfRequestCpu: perRequest ? microsPerCheck / perRequest : null,
  };
}

async function main() {
  // One port for both groups, so their figures compare.
  const port = await choosePort(benchPort());
  const vars = {
    RATE_LIMIT_PER_MINUTE: "1000000000",
    MAX_PENDING_LINKS: "1000000000",
    OPERATOR_TOKEN: randomBytes(24).toString("hex"),
    SECRETS_KEY: randomBytes(32).toString("base64"),
    ALLOW_HTTP_EVENT_ENDPOINTS: "true",
  };
  console.log(`bench: ${SECONDS} s per scenario, ${CONNECTIONS} connections, 127.0.0.1:${port}`);
  const sourcesBefore = sourcesChangedAt();
  const launch = await runGroup("launch", port, vars);
  const webhooks = await runGroup("webhooks", port, vars);
  const rows = [...launch.rows, ...webhooks.rows];
  const held = webhooks.held;
  if (wrongAnswers)
    console.error(`!!! webhook-lastNode: ${wrongAnswers} answers were not the set node's output`);
  // An edit mid-run reloads the worker (a wrangler.toml edit can even switch the local D1 file).
  const sourcesChanged = sourcesChangedAt() !== sourcesBefore;
  if (sourcesChanged) console.error("!!! src/ or wrangler.toml changed during the run: unreliable");
  console.log("");
  printTable(rows);
  const signature = await signatureCost(rows);
  console.log(
    `\nsignature check (github preset, ${signature.checks} checks in Node's Web Crypto): ` +
      `${signature.microsPerCheck.toFixed(1)} µs each` +
      (signature.shareOfRequestCpu === null
        ? ""
        : `, ${(signature.shareOfRequestCpu * 100).toFixed(1)} % of webhook-immediate-github's CPU per request`),
  );
  if (held) {
    console.log(
      `\nhold: ${held.callers} lastNode callers on a ${held.waitSeconds} s wait: ${JSON.stringify(held.statuses)}` +
        ` in ${held.seconds.toFixed(1)} s; workerd RSS ${held.workerdRssBeforeMiB.toFixed(0)} MiB before,` +
        ` ${held.workerdRssPeakMiB.toFixed(0)} MiB peak (${held.heldMiBPerThousandCallers.toFixed(1)} MiB per 1,000 held) ${held.pass ? "PASS" : "FAIL"}`,
    );
  }

  const wranglerPkg = path.join(ROOT, "node_modules", "wrangler", "package.json");
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    machine: `${os.platform()} ${os.arch()}, ${os.cpus()[0]?.model}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    wrangler: JSON.parse(fs.readFileSync(wranglerPkg, "utf8")).version,
    settings: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, port },
    targets: { ...TARGETS, status5xx: 0, unit: "% of the reference req/s on the same server" },
    linksCreated: launch.linksCreated,
    eventsReceived,
    sourcesChangedDuringRun: sourcesChanged,
    scenarios: rows,
    webhookLastNodeWrongAnswers: wrongAnswers,
    signature,
    hold: held,
    pass:
      !sourcesChanged && rows.every((r) => r.pass) && (held?.pass ?? true) && wrongAnswers === 0,
  };
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${report.pass ? "PASS" : "FAIL"}, written to ${RESULTS_FILE}`);
}

async function shutdown(code) {
  await stopServer();
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => shutdown(130));
// No server outlives this process: scripts/local-server.mjs kills its process groups on exit.

/** The browser's measures (scripts/bench-browser.mjs: chat greeting, dashboard), on a server of their own. */
function benchBrowser() {
  if (ONLY && !ONLY.includes("browser")) return;
  spawnSync(process.execPath, [path.join(ROOT, "scripts", "bench-browser.mjs")], {
    stdio: "inherit",
  });
}

main().then(
  async () => {
    await stopServer();
    benchBrowser();
    return shutdown(0);
  },
  (error) => {
    console.error(`bench failed: ${error.stack ?? error}`);
    return shutdown(1);
  },
);
