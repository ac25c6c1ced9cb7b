// The benchmark's server: the Worker as `wrangler deploy` would upload it (bundled and minified by
// wrangler itself), served by workerd through the Miniflare API, the way wrangler's own tests do,
// with the bindings of wrangler.toml (read by wrangler) and nothing of `wrangler dev`'s proxy in
// front. D1 and the Durable Objects keep their state on disk in a temporary folder, as they do
// under `wrangler dev` and in production. Bound to 127.0.0.1 only.

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { ROOT } from "../local-server.mjs";

const BUILD_DIR = path.join(ROOT, ".cache", "bench", "worker");

/** Runs `npx wrangler <args>` in the project (3 minutes at most); `env` on top of this one's. */
function wrangler(args, env = {}) {
  return spawnSync("npx", ["wrangler", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, CI: "true", ...env },
  });
}

/**
 * Bundles the Worker with `wrangler deploy --dry-run` (the bytes a deploy uploads) into
 * .cache/bench/worker; `minify: false` for a profile. Returns its path and its size in bytes, raw and gzip (level 9, as the
 * upload's limit counts it).
 * @returns {{ script: string, bytes: number, gzipBytes: number }}
 */
export function buildWorker({ minify = true } = {}) {
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  const args = ["deploy", "--dry-run", "--outdir", BUILD_DIR];
  // A profile names functions only when they keep their names.
  if (!minify) args.push("--no-minify");
  // wrangler's build step builds the client assets first, so a fresh clone can run the bench.
  const run = wrangler(args);
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stderr}`);
  const script = path.join(BUILD_DIR, "index.js");
  const code = fs.readFileSync(script);
  return { script, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

/** The workerd process Miniflare started: the newest child of this process named workerd. */
function workerdPid() {
  const ps = spawnSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], {
    encoding: "utf8",
  });
  const pids = ps.stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm?.startsWith("workerd"))
    .map(([pid]) => Number(pid));
  if (pids.length === 0) throw new Error("no workerd process found under this one");
  return Math.max(...pids);
}

/** wrangler.toml read by wrangler into Miniflare 4's worker options. */
export const wranglerWorkerOptions = () =>
  unstable_getMiniflareWorkerOptions(path.join(ROOT, "wrangler.toml")).workerOptions;

/**
 * Serves one Worker through workerd on 127.0.0.1:`port`, its state on disk in a temporary folder.
 * `inspectorPort` opens workerd's V8 inspector (for --profile).
 * @param {{ worker: object, port: number, inspectorPort?: number }} options `worker`: Miniflare 4 worker options
 * @returns {Promise<{ base: string, pid: number, persistDir: string, mf: Miniflare, stop: () => Promise<void> }>}
 */
export async function serveWorker({ worker, port, inspectorPort }) {
  const persistDir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-bench-"));
  // wrangler reads wrangler.toml into Miniflare 4's option shape; Miniflare 5 converts it.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      // Miniflare's own entry (which adds `request.cf`, and a hop) on a port of its own; the load
      // goes straight to the Worker's socket, as requests reach a Worker on Cloudflare.
      host: "127.0.0.1",
      port: 0,
      ...(inspectorPort ? { inspectorPort } : {}),
      log: new Log(LogLevel.WARN),
      // The placeholder `request.cf`: fetching the real one needs the internet.
      cf: false,
      defaultPersistRoot: persistDir,
      workers: [{ ...worker, unsafeDirectSockets: [{ host: "127.0.0.1", port }] }],
    }),
  );
  await mf.ready;
  return {
    base: `http://127.0.0.1:${port}`,
    pid: workerdPid(),
    persistDir,
    mf,
    async stop() {
      await mf.dispose();
      fs.rmSync(persistDir, { recursive: true, force: true });
    },
  };
}

/**
 * The vars a bench server runs with on top of wrangler.toml's: the rate limits and the pending cap
 * lifted (their checks still run), fresh secrets, and outbound calls to 127.0.0.1 allowed (the
 * model stand-in, the event receiver).
 */
export function benchVars() {
  return {
    RATE_LIMIT_PER_MINUTE: "999999999",
    MAX_PENDING_LINKS: "999999999",
    OPERATOR_TOKEN: randomBytes(24).toString("hex"),
    SECRETS_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OUTBOUND: "true",
  };
}

/**
 * Starts the built Worker on 127.0.0.1:`port` with wrangler.toml's bindings, `vars` on top,
 * migrations applied. `inspectorPort` opens workerd's V8 inspector (for --profile).
 * @param {{ script: string, port: number, vars: Record<string, string>, inspectorPort?: number }} options
 */
export async function startWorkerd({ script, port, vars, inspectorPort }) {
  // The bundle is one module already; wrangler's rules for finding more have nothing to act on.
  // Static assets are left out: Cloudflare serves them before any Worker, while Miniflare would put
  // two Workers of its own (an asset router and an asset server) in front of ours on every request.
  const { modulesRules: _rules, assets: _assets, ...workerOptions } = wranglerWorkerOptions();
  const worker = {
    ...workerOptions,
    name: "agent-edge",
    modules: true,
    scriptPath: script,
    bindings: { ...workerOptions.bindings, ...vars },
  };
  const server = await serveWorker({ worker, port, inspectorPort });
  const db = await server.mf.getD1Database("DB");
  for (const migration of await readD1Migrations(path.join(ROOT, "migrations"))) {
    await db.batch(migration.queries.map((query) => db.prepare(query)));
  }
  return server;
}

/**
 * The Worker's start-up (ms): the CPU its global scope takes, as `wrangler check startup`
 * measures it (a CPU profile of the start-up phase in local workerd; "Active" time).
 */
export function startupMs() {
  const outfile = path.join(BUILD_DIR, "startup.cpuprofile");
  // It bundles the Worker again (its --worker option fails on our bundle); the client is built.
  const run = wrangler(["check", "startup", "--outfile", outfile], { AGENT_EDGE_PREBUILT: "1" });
  const active = /Active:\s+([\d.]+)\s*ms/.exec(run.stdout + run.stderr);
  if (!active) throw new Error(`wrangler check startup failed:\n${run.stdout}${run.stderr}`);
  return Number(active[1]);
}
