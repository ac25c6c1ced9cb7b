// The one way to start the service locally, shared by `npm run dev` (scripts/dev.mjs), the
// benchmark (scripts/bench.mjs), the browser tests (test/browser/*.spec.ts) and the smoke's CI run
// (scripts/smoke-local.mjs): applies the D1 migrations, starts `wrangler dev` on 127.0.0.1, waits
// for `GET /health`, and stops the whole process group (npx → wrangler → workerd) when asked or
// when this process exits. Seeding a workspace is the other shared half, in scripts/demo-seed.mjs;
// `fetchApi` connects the two.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The project root (where wrangler.toml is). */
export const ROOT = path.join(import.meta.dirname, "..");
/** `npm run dev`'s default port; servers started for tests and benchmarks never take it. */
export const DEV_PORT = 8787;
/** Set for a server's wrangler: scripts/build-client.mjs then leaves dist/client as it is. */
export const PREBUILT = "AGENT_EDGE_PREBUILT";

const LOG_TAIL_CHARS = 8_000;
/** A migration run's whole output is kept for its summary (a fresh database: about 20 KB). */
const MIGRATION_OUTPUT_CHARS = 1_000_000;
const STOP_GRACE_MS = 5_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Process groups still running; killed on exit so a crashed run leaves no workerd behind. */
const liveGroups = new Set();
process.once("exit", () => {
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
});

function killGroup(pid, signal) {
  try {
    // Signalling npx alone would orphan wrangler and workerd: the whole group.
    process.kill(-pid, signal);
  } catch {} // the group is already gone
}

function listen(port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : port));
    });
  });
}

/**
 * A free port on 127.0.0.1: `wanted` when given (an Error if it is taken), else any but 8787.
 * @param {number | undefined} wanted
 * @param {number[]} [taken] ports already chosen for this server
 */
export async function choosePort(wanted, taken = []) {
  if (wanted !== undefined) {
    return listen(wanted).catch(() => {
      throw new Error(`Port ${wanted} on 127.0.0.1 is in use; stop that server or pick another.`);
    });
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await listen(0);
    if (port !== DEV_PORT && !taken.includes(port)) return port;
  }
  throw new Error("Could not find a free port on 127.0.0.1.");
}

/** Node 24 (the devDependency) first on PATH, so npx and wrangler never run on an older node. */
function childEnv(extra) {
  const bin = path.join(ROOT, "node_modules", ".bin");
  const PATH = [bin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter);
  // CI=true: wrangler applies migrations without asking; no metrics from local runs.
  return { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", PATH, ...extra };
}

/**
 * Starts `npx <args>` in a process group of its own. `output`: "inherit" shows it as it comes;
 * "keep" keeps its tail (or up to `keepChars`); a function gets each line and what it returns is
 * shown, on the stream the line came on (null: nothing; npm run dev's quiet start); the tail is
 * kept too.
 */
function spawnGroup(args, env, output, keepChars = LOG_TAIL_CHARS) {
  const inherit = output === "inherit";
  const child = spawn("npx", args, {
    cwd: ROOT,
    env,
    // stdin is never inherited: a background process group reading the terminal would stop.
    stdio: inherit ? ["ignore", "inherit", "inherit"] : "pipe",
    detached: process.platform !== "win32",
  });
  let tail = "";
  const collect = (chunk) => {
    tail = (tail + chunk.toString("utf8")).slice(-keepChars);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  if (typeof output === "function") {
    filterLines(child.stdout, process.stdout, output);
    filterLines(child.stderr, process.stderr, output);
  }
  if (child.pid !== undefined) liveGroups.add(child.pid);
  const exited = new Promise((resolve) => child.once("close", (code) => resolve(code)));
  return { child, exited, output: () => tail };
}

/** Writes what `filter` makes of each line of `from` to `to` (null: nothing), a line at a time. */
function filterLines(from, to, filter) {
  let partial = "";
  const write = (line) => {
    const shown = filter(line);
    if (shown !== null) to.write(`${shown}\n`);
  };
  from?.on("data", (chunk) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) write(line);
  });
  from?.on("end", () => {
    if (partial) write(partial);
  });
}

/**
 * Runs `npx <args>` to completion within `timeoutMs`; resolves with its output (a bounded tail
 * when shown); throws with its output's tail.
 */
async function run(args, env, inherit, timeoutMs) {
  const output = inherit ? "inherit" : "keep";
  const group = spawnGroup(args, env, output, inherit ? LOG_TAIL_CHARS : MIGRATION_OUTPUT_CHARS);
  const timer = setTimeout(() => killGroup(group.child.pid, "SIGKILL"), timeoutMs);
  const code = await group.exited;
  clearTimeout(timer);
  liveGroups.delete(group.child.pid);
  const text = group.output();
  if (code !== 0)
    throw new Error(`npx ${args.join(" ")} failed (exit ${code}):\n${text.slice(-LOG_TAIL_CHARS)}`);
  return text;
}

/**
 * `wrangler d1 migrations apply DB --local`, into `persist` (`--persist-to <dir>`, or none);
 * resolves with its output.
 */
function applyMigrations(persist, env, inherit) {
  const args = ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persist];
  return run(args, env, inherit, 120_000);
}

/**
 * Applies the D1 migrations to a local state folder (`--persist-to`), as `startLocalServer` does
 * for its own state. Servers started with `migratedState: dir` then copy it instead of migrating
 * again: the browser tests' global setup migrates once for all its servers (about 12 s a time).
 * @param {string} dir the state folder, created when missing
 * @param {object} [options]
 * @param {boolean} [options.prebuilt] see `startLocalServer`
 * @param {boolean} [options.inheritOutput] show wrangler's output; else keep its tail
 * @throws {Error} with wrangler's output tail when a migration fails
 */
export async function migrateState(dir, options = {}) {
  const env = childEnv(options.prebuilt ? { [PREBUILT]: "1" } : {});
  await applyMigrations(["--persist-to", dir], env, options.inheritOutput ?? false);
}

/**
 * Starts the service with `wrangler dev` on 127.0.0.1 and waits until `/health` answers 200.
 * @param {object} options
 * @param {number} [options.port] a fixed port (an Error if taken); default: a free one, never 8787
 * @param {"temporary" | "project"} [options.state] "temporary": fresh D1 and object state in a
 *   temp dir, removed on stop; "project": the developer's `.wrangler/state`
 * @param {Record<string, string>} [options.vars] Worker vars and secrets; when given, the
 *   project's `.dev.vars` is not read; when absent, it is (`npm run dev`)
 * @param {Record<string, string>} [options.devVars] vars set on top of `.dev.vars` (`npm run dev`
 *   sets ALLOW_PRIVATE_OUTBOUND whatever an older `.dev.vars` holds)
 * @param {boolean} [options.inheritOutput] show wrangler's output (dev); else keep its tail
 * @param {(line: string) => string | null} [options.filterLine] `npm run dev`'s quiet start: the
 *   migrations' output is not shown (it is returned as `migrations`, for a summary) and, of
 *   `wrangler dev`'s, what this makes of each line (null: nothing; scripts/dev-output.mjs)
 * @param {string} [options.logLevel] wrangler's log level, e.g. "warn" to keep benchmarks quiet
 * @param {number} [options.healthTimeoutMs] default 90 s
 * @param {string} [options.migratedState] a state folder `migrateState` made: a "temporary"
 *   server starts from a copy of it instead of applying the migrations itself
 * @param {string} [options.persistDir] a "temporary" server's state in this folder instead, kept
 *   when it stops, so another server started on it later continues (a restart, as a deploy
 *   is); filled from `migratedState`, or migrated, only while it is empty
 * @param {boolean} [options.prebuilt] dist/client is built already: wrangler's [build] step
 *   (scripts/build-client.mjs) is skipped, so servers started side by side never rewrite the files
 *   another one is serving (the browser tests build once, in their global setup)
 * @returns {Promise<{base: string, port: number, pid: number, persistDir: string | undefined,
 *   migrations: string, stop(): Promise<void>, exited: Promise<number | null>,
 *   output(): string}>} (`persistDir`: the temporary state's folder, for `wrangler d1 execute
 *   --local --persist-to`; `migrations`: their output, "" when shown or not run)
 * @throws {Error} with wrangler's output tail when migrations fail or /health does not answer
 */
export async function startLocalServer(options = {}) {
  const { state = "temporary", vars, inheritOutput = false, filterLine } = options;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-server-"));
  const removeTmp = () => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  // A registry of our own, so this instance never replaces another `wrangler dev` of the worker.
  const env = childEnv({
    ...(state === "temporary" ? { WRANGLER_REGISTRY_PATH: path.join(tmp, "reg") } : {}),
    ...(options.prebuilt ? { [PREBUILT]: "1" } : {}),
  });
  const stateDir = options.persistDir ?? path.join(tmp, "state");
  const persist = state === "temporary" ? ["--persist-to", stateDir] : [];
  const fresh = !fs.existsSync(stateDir) || fs.readdirSync(stateDir).length === 0;
  const showMigrations = inheritOutput && !filterLine;
  let migrations = "";
  try {
    if (state === "temporary" && options.persistDir && !fresh) {
      // A later server on kept state: the migrations were applied by the first.
    } else if (state === "temporary" && options.migratedState) {
      fs.cpSync(options.migratedState, stateDir, { recursive: true });
    } else {
      const output = await applyMigrations(persist, env, showMigrations);
      if (!showMigrations) migrations = output;
    }
  } catch (error) {
    removeTmp();
    throw error;
  }
  const port = await choosePort(options.port);
  const inspectorPort = await choosePort(undefined, [port]);
  const args = ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), ...persist];
  args.push("--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false");
  if (options.logLevel) args.push("--log-level", options.logLevel);
  if (vars) {
    // An empty --env-file keeps wrangler from reading (and watching) the project's .dev.vars.
    const envFile = path.join(tmp, "empty.env");
    fs.writeFileSync(envFile, "# vars are passed with --var\n");
    args.push("--env-file", envFile);
  }
  // A workflow's create_link needs the chat's absolute address with no request to take it from
  // (docs/workflows.md#create-link): a server given its vars gets its own origin unless they name one.
  const own = vars && !vars.BASE_URL ? { BASE_URL: `http://127.0.0.1:${port}` } : {};
  for (const [name, value] of Object.entries({ ...own, ...vars, ...options.devVars })) {
    args.push("--var", `${name}:${value}`);
  }
  const shown = filterLine ?? (inheritOutput ? "inherit" : "keep");
  const { child, exited, output } = spawnGroup(args, env, shown);
  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      killGroup(child.pid, "SIGTERM");
      await Promise.race([exited, sleep(STOP_GRACE_MS)]);
      killGroup(child.pid, "SIGKILL"); // workerd may still be shutting down after npx has gone
      liveGroups.delete(child.pid);
      removeTmp();
    })();
    return stopped;
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.healthTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited before /health answered:\n${output()}`);
    }
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => null,
    );
    void res?.body?.cancel().catch(() => {});
    if (res?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`GET ${base}/health did not answer 200 in time:\n${output()}`);
    }
    await sleep(300);
  }
  const persistDir = state === "temporary" ? persist[1] : undefined;
  return { base, port, pid: child.pid, persistDir, migrations, stop, exited, output };
}

/**
 * A throwaway server for a CI step (the smoke, the doc tests, the SDK install test): fresh
 * temporary state, a random operator token and secrets key, warnings only, and dist/client served
 * as `npm test` built it. `vars` adds to or overrides the settings.
 * @param {Record<string, string>} [vars]
 * @returns {Promise<{server: Awaited<ReturnType<typeof startLocalServer>>, operatorToken: string}>}
 * @throws {Error} as startLocalServer does
 */
export async function startFreshServer(vars = {}) {
  const operatorToken = randomBytes(32).toString("hex");
  const server = await startLocalServer({
    state: "temporary",
    vars: {
      OPERATOR_TOKEN: operatorToken,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      ...vars,
    },
    logLevel: "warn",
    // Built already (npm test builds first): served as it is, not rebuilt.
    prebuilt: fs.existsSync(path.join(ROOT, "dist", "client", "widget.js")),
  });
  return { server, operatorToken };
}

/**
 * The `Api` of scripts/demo-seed.mjs over fetch against `base`: JSON in and out, never throws for
 * a status (the seed checks them).
 * @param {string} base e.g. `http://127.0.0.1:8787`
 */
export function fetchApi(base) {
  return async (method, route, { token, body, headers: extra } = {}) => {
    const headers = { ...extra };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(base + route, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    // Error pages from wrangler itself may not be JSON; keep the text for the message.
    const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined;
    return { status: res.status, json, text };
  };
}
