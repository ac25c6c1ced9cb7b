/**
 * Launch API benchmark (`npm run bench`): create, look-up and revoke of widget launch links.
 *
 * Each scenario is reported as a percentage of `GET /health` (no I/O) measured in the same run, so
 * the figures show what the API itself costs on top of the runtime, whatever this machine's speed.
 *
 * How: applies the migrations into a fresh temporary persist dir, starts its own `wrangler dev` on
 * 127.0.0.1 (port 8788 or BENCH_PORT) with the rate limit and the pending cap lifted to 1e9 through
 * `--var` (the checks still run), seeds a workspace, agent, widget channel and widget key through
 * the HTTP API, then drives each scenario with autocannon: a 2 s warm-up that is not recorded, then
 * BENCH_SECONDS (10) with BENCH_CONNECTIONS (32). Prints a table, writes bench-results/launch.json.
 * Exit code 0 once measured, even when a target fails; 1 when the server or the seeding failed.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 10);
const CONNECTIONS = positiveInt(process.env.BENCH_CONNECTIONS, 32);
const WARMUP_SECONDS = 2;
const MAX_IDS = 2_000_000; // bounds the collected ids whatever the create rate
/** Least req/s of each scenario as a percentage of the reference's; all need zero 5xx. */
const TARGETS = { create: 35, lookup: 50, revoke: 40 };
const RESULTS_FILE = path.join(ROOT, "bench-results", "launch.json");
const AGENT = {
  name: "Bench agent",
  mode: "initiator",
  parameters: [
    { name: "plan", type: "string", required: true },
    { name: "tier", type: "string", options: ["free", "pro"] },
    { name: "seats", type: "integer" },
  ],
};

function positiveInt(value, fallback) {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-bench-"));
const bin = [path.join(ROOT, "node_modules", ".bin"), path.dirname(process.execPath)];
const childEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  // A registry of our own, so this instance does not replace another `wrangler dev` of the worker.
  WRANGLER_REGISTRY_PATH: path.join(tmp, "registry"),
  // Node 24 first, so npx and wrangler never run on the machine's older node.
  PATH: [...bin, process.env.PATH].join(path.delimiter),
};
let server; // the wrangler dev child, leader of its own process group

/** Latest change under src/, migrations/ and wrangler.toml: wrangler dev reloads on any of them. */
function sourcesChangedAt() {
  const list = (dir) => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f));
  const files = [...list(path.join(ROOT, "src")), ...list(path.join(ROOT, "migrations"))];
  files.push(path.join(ROOT, "wrangler.toml"));
  const mtime = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Math.max(...files.slice(0, 10_000).map(mtime)); // a file may vanish while listed
}

function canListen(port) {
  return new Promise((resolve) => {
    const probe = net.createServer().once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** BENCH_PORT as given, or the first free port from 8788; never 8787, `npm run dev`'s port. */
async function choosePort() {
  const first = positiveInt(process.env.BENCH_PORT, 8788);
  const tries = process.env.BENCH_PORT ? 1 : 20;
  for (let port = first; port < first + tries; port++) {
    if (port !== 8787 && (await canListen(port))) return port;
  }
  throw new Error(`no free port on 127.0.0.1 in ${first}-${first + tries - 1} (8787 excluded)`);
}

/** Applies the migrations; synchronous, because nothing else can happen before it. */
function applyMigrations(dir) {
  const args = ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir];
  const options = { cwd: ROOT, env: childEnv, encoding: "utf8", timeout: 120_000 };
  const run = spawnSync("npx", args, options);
  if (run.status !== 0) throw new Error(`migrations failed:\n${run.stdout}${run.stderr}`);
}

function startServer(port, persistDir, vars) {
  // An empty --env-file keeps wrangler from reading (and watching) the project's .dev.vars.
  const envFile = path.join(tmp, "bench.env");
  fs.writeFileSync(envFile, "# vars are passed with --var\n");
  const args = ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--persist-to", persistDir, "--env-file", envFile);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  // warn: no per-request log lines for wrangler to write while it is being measured.
  args.push("--show-interactive-dev-session=false", "--log-level", "warn");
  // detached: npx, wrangler and workerd form one process group, stopped together.
  server = spawn("npx", args, { cwd: ROOT, env: childEnv, detached: true, stdio: "pipe" });
  server.log = ""; // the tail of its output, for error messages
  const collect = (chunk) => (server.log = (server.log + chunk).slice(-8000));
  server.stdout.on("data", collect);
  server.stderr.on("data", collect);
  server.exited = new Promise((resolve) => server.once("close", resolve));
}

async function waitForHealth(base) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${server.log}`);
    const signal = AbortSignal.timeout(2000);
    const res = await fetch(`${base}/health`, { signal }).catch(() => null);
    if (res?.status === 200) return;
    await sleep(500);
  }
  throw new Error(`GET /health did not answer 200 within 60 s:\n${server.log}`);
}

function killServerGroup(signal) {
  try {
    if (server) process.kill(-server.pid, signal);
  } catch {} // the group is already gone
}

/** SIGTERM to the whole group, SIGKILL to whatever is left after 5 s; safe to repeat. */
async function stopServer() {
  if (!server) return;
  killServerGroup("SIGTERM");
  await Promise.race([server.exited, sleep(5000)]);
  killServerGroup("SIGKILL"); // workerd may still be shutting down after npx has gone
  server = undefined;
}

/** Seeding call: POST JSON, throws unless 201. */
async function post(base, route, token, body) {
  const res = await fetch(`${base}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${route} → ${res.status}, not 201: ${text}`);
  return JSON.parse(text);
}

async function seed(base, operatorToken) {
  const owner = { email: "bench@example.com", name: "Bench" };
  const ws = await post(base, "/v1/operator/workspaces", operatorToken, { name: "Bench", owner });
  const manage = (route, body) => post(base, `/v1/manage/${route}`, ws.memberToken, body);
  const agent = await manage("agents", AGENT);
  const channel = await manage(`agents/${agent.id}/channels`, { type: "widget", name: "Web" });
  const { key } = await manage("widget-keys", { name: "bench" });
  return { flowId: agent.id, channelId: channel.id, key };
}

/** The four scenarios; look-up and revoke walk the ids that create collected. */
function scenarios({ flowId, channelId, key }) {
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
  const list = [
    { name: "reference", expect: 200, request: { method: "GET", path: "/health" } },
    { name: "create", expect: 201, request: create },
    { name: "lookup", expect: 200, request: byId("GET", "lookup"), needsIds: true },
    { name: "revoke", expect: 204, request: byId("DELETE", "revoke"), needsIds: true },
  ];
  return { ids, cursor, list };
}

function drive(base, request, seconds) {
  return new Promise((resolve, reject) => {
    const opts = { url: base, connections: CONNECTIONS, duration: seconds, requests: [request] };
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
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
  const head = ["scenario", "req/s", "p50 ms", "p99 ms", "5xx", "vs ref", "target", "result"];
  const lines = rows.map((r) => [
    ...[r.scenario, r.reqPerSec.toFixed(0), r.latencyP50Ms, r.latencyP99Ms, r.status5xx],
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
    await drive(base, s.request, WARMUP_SECONDS);
    const revokedBefore = Math.min(plan.cursor.revoke, plan.ids.length);
    const result = await drive(base, s.request, SECONDS);
    rows.push(summarize(s, result, rows[0]?.reqPerSec ?? result.requests.average));
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

async function main() {
  const port = await choosePort();
  const base = `http://127.0.0.1:${port}`;
  const persistDir = path.join(tmp, "state");
  const vars = {
    RATE_LIMIT_PER_MINUTE: "1000000000",
    MAX_PENDING_LINKS: "1000000000",
    OPERATOR_TOKEN: randomBytes(24).toString("hex"),
    SECRETS_KEY: randomBytes(32).toString("base64"),
  };
  console.log(`bench: ${SECONDS} s per scenario, ${CONNECTIONS} connections, ${base}`);
  const sourcesBefore = sourcesChangedAt();
  applyMigrations(persistDir);
  startServer(port, persistDir, vars);
  await waitForHealth(base);
  const plan = scenarios(await seed(base, vars.OPERATOR_TOKEN));
  const rows = await measure(base, plan);
  // An edit mid-run reloads the worker (a wrangler.toml edit can even switch the local D1 file).
  const sourcesChanged = sourcesChangedAt() !== sourcesBefore;
  if (sourcesChanged) console.error("!!! src/ or wrangler.toml changed during the run: unreliable");
  // The worker logs each 500's cause; show it next to the figures.
  if (rows.some((r) => r.status5xx)) console.error(`--- wrangler output (tail):\n${server.log}`);
  console.log("");
  printTable(rows);

  const wranglerPkg = path.join(ROOT, "node_modules", "wrangler", "package.json");
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    machine: `${os.platform()} ${os.arch()}, ${os.cpus()[0]?.model}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    wrangler: JSON.parse(fs.readFileSync(wranglerPkg, "utf8")).version,
    settings: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, port },
    targets: { ...TARGETS, status5xx: 0, unit: "% of reference req/s in the same run" },
    linksCreated: plan.ids.length,
    sourcesChangedDuringRun: sourcesChanged,
    scenarios: rows,
    pass: !sourcesChanged && rows.every((r) => r.pass),
  };
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${report.pass ? "PASS" : "FAIL"}, written to ${RESULTS_FILE}`);
}

async function shutdown(code) {
  await stopServer();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => shutdown(130));
// Last resort if the process exits without shutdown(): never leave the server behind.
process.once("exit", () => killServerGroup("SIGKILL"));

main().then(
  () => shutdown(0),
  (error) => {
    console.error(`bench failed: ${error.stack ?? error}`);
    return shutdown(1);
  },
);
