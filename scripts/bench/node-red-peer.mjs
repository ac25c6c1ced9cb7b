// The benchmark's peer (issue 16): Node-RED running the same webhook → secret check → set work as
// our bench workflows (scripts/bench/node-red/flow.mjs), so `npm run bench -- --peer node-red` can
// put their figures beside ours, measured on the same machine in the same run.
//
// Node-RED is not a dependency of the project (`npm ci` stays lean): a pinned release is installed
// on first use into ROOT/.cache/bench/node-red-<version> (git-ignored) with plain npm, and started
// with the Node that runs the harness (Node-RED 5 needs ≥ 22.9, and the records use node:sqlite),
// spawned directly so that the PID handed back is the process serving HTTP (the harness reads its
// CPU and RSS from /proc/<pid>). Each start gets a fresh userDir in a temporary folder.
//
// `node scripts/bench/node-red-peer.mjs --check` (with Node ≥ 22.9, e.g. `npx node …`) installs if
// needed, starts both record modes, sends calls with the right and a wrong secret, prints the
// answers and the record count, and exits 1 if any differs from what the flow must answer.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { buildFlow, READY_ROUTE, ROUTES } from "./node-red/flow.mjs";

/** The Node-RED release the peer runs (the newest on npm when pinned). */
export const NODE_RED_VERSION = "5.0.7";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CACHE_DIR = path.join(ROOT, ".cache", "bench", `node-red-${NODE_RED_VERSION}`);
const SETTINGS = path.join(import.meta.dirname, "node-red", "settings.cjs");
const INSTALL_TIMEOUT_MS = 600_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_TAIL_CHARS = 8_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Children still running; killed when this process exits so a crashed run leaves none behind. */
const live = new Set();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

function installedVersion(dir) {
  const manifest = path.join(dir, "node_modules", "node-red", "package.json");
  try {
    return JSON.parse(fs.readFileSync(manifest, "utf8")).version;
  } catch {
    return undefined;
  }
}

/** Runs a child to its end within `timeoutMs`; rejects with its output's tail if it fails. */
function run(command, args, env, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (chunk) => {
      tail = (tail + chunk).slice(-LOG_TAIL_CHARS);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} ended with ${signal ?? code}:\n${tail}`));
    });
  });
}

/**
 * Installs the pinned Node-RED into the cache unless it is there already. npm runs on this
 * process's Node (first on PATH); the install goes to a temporary sibling folder renamed into
 * place once complete, so an interrupted install is never taken for a finished one.
 * @returns {Promise<string>} the folder holding node_modules/node-red
 */
async function ensureInstalled() {
  if (installedVersion(CACHE_DIR) === NODE_RED_VERSION) return CACHE_DIR;
  const staging = `${CACHE_DIR}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  console.error(`Installing node-red@${NODE_RED_VERSION} into ${path.relative(ROOT, CACHE_DIR)}…`);
  const PATH = [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter);
  // --omit=optional: skips @node-rs/bcrypt's prebuilt binary (bcryptjs serves, and only for admin
  // logins, which are off); --ignore-scripts: no install script downloads or builds anything.
  const args = ["install", "--prefix", staging, `node-red@${NODE_RED_VERSION}`, "--no-audit"];
  args.push("--no-fund", "--omit=dev", "--omit=optional", "--ignore-scripts");
  try {
    await run("npm", args, { ...process.env, PATH }, INSTALL_TIMEOUT_MS);
    if (installedVersion(staging) !== NODE_RED_VERSION)
      throw new Error("npm installed no node-red");
    fs.rmSync(CACHE_DIR, { recursive: true, force: true });
    fs.renameSync(staging, CACHE_DIR);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return CACHE_DIR;
}

/** A free port on 127.0.0.1 (the OS picks it; it is free again once this returns). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers 200; rejects when `exited()` says the process ended or at `deadline`. */
async function waitUntilAnswering(url, exited, deadline, logTail) {
  for (;;) {
    const why = exited();
    if (why) throw new Error(why);
    if (Date.now() > deadline) {
      throw new Error(`Node-RED did not answer ${url} within 60 s:\n${logTail()}`);
    }
    const answer = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (answer?.ok) return;
    await sleep(100);
  }
}

/**
 * Installs (once, into ROOT/.cache/bench/node-red-<version>) and starts Node-RED on 127.0.0.1
 * with the benchmark flow (scripts/bench/node-red/flow.mjs) in a fresh temporary userDir.
 * @param {{ secret: string, records: "memory" | "sqlite", port?: number }} options `secret`: the
 *   value of `x-webhook-secret` the flow's check accepts; `records`: "sqlite" writes each
 *   execution's record to a SQLite file, "memory" stores nothing; `port`: a free one if left out
 * @returns {Promise<{ origin: string, routes: { immediate: string, lastNode: string }, pid: number,
 *   stop: () => Promise<void>, recordCount: () => number, recordsFile: string }>} `origin`
 *   http://127.0.0.1:<port>; `routes` POST paths; `pid` the Node process serving HTTP; `stop` ends
 *   it (SIGTERM, SIGKILL after 10 s) and removes its userDir; `recordCount` the rows in the
 *   records table (0 in memory mode; after `stop`, the count when it stopped); `recordsFile` the
 *   SQLite file ("" in memory mode; gone after `stop`)
 * @throws when Node is older than 22.9, npm fails, or Node-RED ends or does not answer in 60 s
 */
export async function startNodeRed({ secret, records, port }) {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 9)) {
    throw new Error(`Node-RED ${NODE_RED_VERSION} needs Node ≥ 22.9 (this is ${process.version}).`);
  }
  if (typeof secret !== "string" || secret === "") throw new Error("secret: a non-empty string");
  if (records !== "memory" && records !== "sqlite")
    throw new Error('records: "memory" or "sqlite"');
  const home = await ensureInstalled();
  const listenPort = port ?? (await freePort());
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-node-red-"));
  fs.writeFileSync(
    path.join(userDir, "flows.json"),
    JSON.stringify(buildFlow({ secret, records })),
  );
  const recordsFile = records === "sqlite" ? path.join(userDir, "records.sqlite") : "";

  const entry = path.join(home, "node_modules", "node-red", "red.js");
  const args = [entry, "--settings", SETTINGS, "--userDir", userDir, "--port", String(listenPort)];
  const env = { ...process.env, BENCH_NODE_RED_RECORDS: recordsFile };
  env.NODE_RED_DISABLE_TELEMETRY = "true";
  delete env.NODE_OPTIONS; // the harness's own flags (an inspector, say) are not Node-RED's
  const child = spawn(process.execPath, args, {
    cwd: userDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let tail = "";
  const keep = (chunk) => {
    tail = (tail + chunk).slice(-LOG_TAIL_CHARS);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  /** @type {string | undefined} */
  let ended;
  child.once("error", (error) => {
    ended = `Node-RED did not start: ${error.message}`; // no "exit" follows a failed spawn
    live.delete(child);
  });
  const exit = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      ended = `Node-RED ended (${signal ?? code}):\n${tail}`;
      live.delete(child);
      resolve(undefined);
    });
  });

  let db;
  let lastCount = 0;
  const recordCount = () => {
    if (!db) return lastCount;
    lastCount = Number(db.prepare("SELECT count(*) AS n FROM records").get()?.n ?? 0);
    return lastCount;
  };
  const stop = async () => {
    if (!ended) {
      child.kill("SIGTERM");
      const late = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(late);
    }
    if (db) {
      recordCount();
      db.close();
      db = undefined;
    }
    fs.rmSync(userDir, { recursive: true, force: true });
  };

  const origin = `http://127.0.0.1:${listenPort}`;
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    await waitUntilAnswering(
      `${origin}${READY_ROUTE}`,
      () => ended,
      deadline,
      () => tail,
    );
    if (recordsFile) {
      const { DatabaseSync } = await import("node:sqlite");
      db = new DatabaseSync(recordsFile, { readOnly: true });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error("Node-RED has no PID");
  return { origin, routes: { ...ROUTES }, pid: child.pid, stop, recordCount, recordsFile };
}

/** The immediate runs' records: one per execution id, whose output is the check's and set's. */
async function checkImmediateRecords(file, ran) {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(file, { readOnly: true });
  let failures = 0;
  for (const [id, ok] of ran) {
    const row = db.prepare("SELECT route, output FROM records WHERE id = ?").get(id);
    const good = row?.route === "immediate" && JSON.parse(String(row.output)).ok === ok;
    if (!good) failures++;
    console.log(
      `  record ${id}: ${row ? `${row.route} ${row.output}` : "missing"}${good ? "" : "  ✗"}`,
    );
  }
  db.close();
  return failures;
}

/** `--check`: both modes, right and wrong secrets, answers and record counts checked. */
async function check() {
  const secret = "bench-check-secret";
  let failures = 0;
  for (const records of /** @type {const} */ (["memory", "sqlite"])) {
    const peer = await startNodeRed({ secret, records });
    console.log(`${records}: Node-RED ${NODE_RED_VERSION} at ${peer.origin}, pid ${peer.pid}`);
    try {
      /** The immediate calls' execution ids, and whether the run after the answer must say ok. */
      const ran = new Map();
      const calls = [
        ["lastNode", secret, (b) => b.ok === true && b.orderId === "ord_1"],
        ["lastNode", "wrong", (b) => b.ok === false && Object.keys(b).length === 1],
        ["immediate", secret, (b) => b.success === true && typeof b.executionId === "string"],
        ["immediate", undefined, (b) => b.success === true && typeof b.executionId === "string"],
      ];
      for (const [route, given, expected] of calls) {
        const headers = { "content-type": "application/json" };
        if (given) headers["x-webhook-secret"] = given;
        const body = JSON.stringify({ orderId: "ord_1" });
        const answer = await fetch(`${peer.origin}${peer.routes[route]}`, {
          method: "POST",
          headers,
          body,
        });
        const text = await answer.text();
        const good = answer.status === 200 && expected(JSON.parse(text));
        if (!good) failures++;
        if (route === "immediate") ran.set(JSON.parse(text).executionId, given === secret);
        console.log(
          `  ${route} secret=${given ?? "(none)"} → ${answer.status} ${text}${good ? "" : "  ✗"}`,
        );
      }
      // The immediate runs write their records after the answer: wait (bounded) for them.
      const wanted = records === "sqlite" ? calls.length : 0;
      for (let i = 0; i < 50 && peer.recordCount() < wanted; i++) await sleep(20);
      const count = peer.recordCount();
      if (count !== wanted) failures++;
      console.log(`  records: ${count} (expected ${wanted})${count === wanted ? "" : "  ✗"}`);
      if (records === "sqlite") failures += await checkImmediateRecords(peer.recordsFile, ran);
    } finally {
      await peer.stop();
    }
  }
  console.log(failures === 0 ? "check passed" : `check failed: ${failures} problem(s)`);
  process.exitCode = failures === 0 ? 0 : 1;
}

if (process.argv[1] === import.meta.filename && process.argv.includes("--check")) await check();
