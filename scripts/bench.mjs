/**
 * Launch API benchmark: `npm run bench`.
 *
 * Measures create, look-up and revoke of widget launch links against a local `wrangler dev`
 * (workerd + local D1 + Durable Objects), each as a percentage of `GET /health` measured in the
 * same run, so the figures compare the API's own cost rather than this machine's speed.
 *
 * How: applies the migrations into a fresh temporary persist dir, starts its own wrangler dev on
 * 127.0.0.1 (port 8788 or BENCH_PORT) with the rate limit and pending cap lifted to 1e9 through
 * `--var`, seeds a workspace, agent, widget channel and widget key through the HTTP API, then drives
 * each scenario with autocannon: a 2 s warm-up that is not recorded, then BENCH_SECONDS (10) with
 * BENCH_CONNECTIONS (32). Prints a table and writes bench-results/launch.json.
 * Exit code: 0 when measured (even if a target fails); 1 when the server or seeding failed.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 10);
const CONNECTIONS = positiveInt(process.env.BENCH_CONNECTIONS, 32);
const WARMUP_SECONDS = 2;
const HEALTH_TIMEOUT_MS = 60_000;
const MAX_IDS = 2_000_000; // bounds the id array whatever the create rate
/** Minimum req/s of each scenario as a percentage of the reference; every scenario needs zero 5xx. */
const TARGETS = { create: 35, lookup: 50, revoke: 40 };
const RESULTS_FILE = path.join(ROOT, "bench-results", "launch.json");

function positiveInt(value, fallback) {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tmp = mkdtempSync(path.join(os.tmpdir(), "agent-edge-bench-"));
// Node 24 from node_modules/.bin first, so npx and wrangler never fall back to the machine's node.
const childEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  // Our own dev registry, so this instance does not replace another `wrangler dev` of this worker.
  WRANGLER_REGISTRY_PATH: path.join(tmp, "registry"),
  PATH: [path.join(ROOT, "node_modules", ".bin"), path.dirname(process.execPath), process.env.PATH]
    .filter(Boolean)
    .join(path.delimiter),
};

let server; // the wrangler dev child, leader of its own process group

function canListen(port) {
  return new Promise((resolve) => {
    const probe = net.createServer().once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** BENCH_PORT exactly, or the first free port from 8788 (never 8787, which dev.mjs uses). */
async function choosePort() {
  if (process.env.BENCH_PORT) {
    const port = positiveInt(process.env.BENCH_PORT, 0);
    if (port && (await canListen(port))) return port;
    throw new Error(`BENCH_PORT ${process.env.BENCH_PORT} is not a free port on 127.0.0.1`);
  }
  for (let port = 8788; port < 8808; port++) if (await canListen(port)) return port;
  throw new Error("no free port in 8788-8807");
}

/** Spawns `npx <args>` in the project, keeping the tail of its output for error messages. */
function npx(args, detached = false) {
  const child = spawn("npx", args, { cwd: ROOT, env: childEnv, detached, stdio: "pipe" });
  child.log = "";
  const collect = (chunk) => (child.log = (child.log + chunk).slice(-8000));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  child.exited = new Promise((resolve) => child.once("close", resolve));
  return child;
}

/** Runs `npx <args>` to completion within `timeoutMs`; throws with its output on failure. */
async function npxRun(args, timeoutMs) {
  const child = npx(args);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`npx ${args.join(" ")} exited with ${code}:\n${child.log}`);
}

function startServer(port, persistDir, vars) {
  // An empty --env-file stops wrangler from reading (and watching) the project's .dev.vars.
  const envFile = path.join(tmp, "bench.env");
  writeFileSync(envFile, "# vars are passed with --var\n");
  const args = ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--persist-to", persistDir, "--env-file", envFile);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  // warn: no per-request log lines for wrangler to write while it is being measured.
  args.push("--show-interactive-dev-session=false", "--log-level", "warn");
  // detached: its own process group, so npx, wrangler and workerd all stop together.
  server = npx(args, true);
}

async function waitForHealth(base) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${server.log}`);
    const signal = AbortSignal.timeout(2000);
    const res = await fetch(`${base}/health`, { signal }).catch(() => null);
    if (res?.status === 200) return;
    await sleep(500);
  }
  throw new Error(`GET /health did not answer 200 within 60 s:\n${server.log}`);
}

function killServer(signal) {
  try {
    process.kill(-server.pid, signal);
  } catch {} // the group is already gone
}

/** SIGTERM to the whole group, then SIGKILL for anything left after 5 s; safe to repeat. */
async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  killServer("SIGTERM");
  await Promise.race([server.exited, sleep(5000)]);
  killServer("SIGKILL");
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
  const agent = await manage("agents", {
    name: "Bench agent",
    mode: "initiator",
    parameters: [
      { name: "plan", type: "string", required: true },
      { name: "tier", type: "string", options: ["free", "pro"] },
      { name: "seats", type: "integer" },
    ],
  });
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
  const body = JSON.stringify({
    flowId,
    channelId,
    parameters: { plan: "pro", tier: "pro", seats: 3 },
    participant: { name: "Ada", externalId: "cus_1" },
  });
  const create = {
    method: "POST",
    path: "/v1/widget/launches",
    headers,
    body,
    onResponse(status, text) {
      if (status === 201 && ids.length < MAX_IDS) ids.push(JSON.parse(text).id);
    },
  };
  return {
    ids,
    cursor,
    list: [
      { name: "reference", expect: 200, request: { method: "GET", path: "/health" } },
      { name: "create", expect: 201, request: create },
      { name: "lookup", expect: 200, request: byId("GET", "lookup"), needsIds: true },
      { name: "revoke", expect: 204, request: byId("DELETE", "revoke"), needsIds: true },
    ],
  };
}

function drive(base, request, seconds) {
  return new Promise((resolve, reject) => {
    const opts = { url: base, connections: CONNECTIONS, duration: seconds, requests: [request] };
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function summarize(name, expect, r) {
  const expected = r.statusCodeStats[expect]?.count ?? 0;
  return {
    scenario: name,
    expectedStatus: expect,
    reqPerSec: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    totalRequests: r.requests.total,
    non2xx: r.non2xx,
    status5xx: r["5xx"],
    unexpectedStatus: r.requests.total - expected,
    statusCodes: Object.fromEntries(
      Object.entries(r.statusCodeStats).map(([s, v]) => [s, v.count]),
    ),
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

function judge(rows) {
  const reference = rows[0].reqPerSec;
  for (const row of rows) {
    row.ratioPct = reference > 0 ? (100 * row.reqPerSec) / reference : 0;
    row.targetPct = TARGETS[row.scenario] ?? null;
    row.pass = row.status5xx === 0 && (row.targetPct === null || row.ratioPct >= row.targetPct);
    const loud = [];
    if (row.status5xx) loud.push(`${row.status5xx} responses were 5xx`);
    if (row.errors) loud.push(`${row.errors} connection errors (${row.timeouts} timeouts)`);
    if (row.unexpectedStatus)
      loud.push(
        `${row.unexpectedStatus} not ${row.expectedStatus}: ${JSON.stringify(row.statusCodes)}`,
      );
    for (const line of loud) console.error(`!!! ${row.scenario}: ${line}`);
  }
}

function printTable(rows) {
  const cols = ["scenario", "req/s", "p50 ms", "p99 ms", "5xx", "vs ref", "target", "result"];
  const lines = rows.map((r) => [
    r.scenario,
    r.reqPerSec.toFixed(0),
    String(r.latencyP50Ms),
    String(r.latencyP99Ms),
    String(r.status5xx),
    `${r.ratioPct.toFixed(1)} %`,
    r.targetPct === null ? "0 5xx" : `>= ${r.targetPct} %`,
    r.pass ? "PASS" : "FAIL",
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...lines.map((l) => l[i].length)));
  for (const line of [cols, ...lines])
    console.log(line.map((v, i) => v.padEnd(widths[i])).join("  "));
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
  console.log(
    `bench: ${SECONDS} s per scenario, ${CONNECTIONS} connections, ${base}, state in ${persistDir}`,
  );
  await npx(
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir],
    120_000,
  );
  startServer(port, persistDir, vars);
  await waitForHealth(base);
  const plan = scenarios(await seed(base, vars.OPERATOR_TOKEN));

  const rows = [];
  let freshRevokes = 0;
  for (const s of plan.list) {
    if (s.needsIds && plan.ids.length === 0) throw new Error(`${s.name}: create produced no links`);
    await drive(base, s.request, WARMUP_SECONDS);
    const revokedBefore = Math.min(plan.cursor.revoke, plan.ids.length);
    rows.push(summarize(s.name, s.expect, await drive(base, s.request, SECONDS)));
    // Revokes past the collected ids repeat (cheap 204s); say how many did the real work.
    if (s.name === "revoke")
      freshRevokes = Math.min(plan.cursor.revoke, plan.ids.length) - revokedBefore;
  }
  judge(rows);
  const revokeRow = rows.find((r) => r.scenario === "revoke");
  revokeRow.pendingLinksRevoked = freshRevokes;
  if (freshRevokes < revokeRow.totalRequests) {
    console.error(
      `!!! revoke: only ${freshRevokes} of ${revokeRow.totalRequests} revoked a pending link; the rest were repeats`,
    );
  }
  console.log("");
  printTable(rows);

  const wrangler = JSON.parse(
    readFileSync(path.join(ROOT, "node_modules/wrangler/package.json"), "utf8"),
  ).version;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      port,
      wrangler,
    },
    linksCreated: plan.ids.length,
    targets: {
      ...TARGETS,
      status5xx: 0,
      note: "req/s as % of reference (GET /health) in the same run",
    },
    scenarios: rows,
    pass: rows.every((r) => r.pass),
  };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\nresults: ${path.relative(ROOT, RESULTS_FILE)} (overall ${report.pass ? "PASS" : "FAIL"})`,
  );
}

async function shutdown(code) {
  await stopServer();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => shutdown(130));
// Last resort if something exits the process without going through shutdown().
process.once("exit", () => {
  if (server?.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {}
});

main().then(
  () => shutdown(0),
  (error) => {
    console.error(`bench failed: ${error.stack ?? error}`);
    return shutdown(1);
  },
);
