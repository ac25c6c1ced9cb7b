/**
 * An isolated `wrangler dev` for the browser tests: its own port, its own D1/Durable Object state
 * in a temporary directory, its own dev registry and random secrets, so it never touches the
 * developer's `npm run dev` (port 8787, .wrangler/state, .dev.vars).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (where wrangler.toml is). */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const HEALTH_TIMEOUT_MS = 90_000;
const MIGRATIONS_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const LOG_TAIL_CHARS = 8_000;
/** `npm run dev`'s port: a test server there would be mistaken for the developer's, and vice versa. */
const DEV_PORT = 8787;

/** A running `wrangler dev`; `stop()` is safe to call more than once. */
export type WranglerServer = {
  /** e.g. `http://127.0.0.1:40123`, no trailing slash. */
  base: string;
  /** The OPERATOR_TOKEN this instance was started with. */
  operatorToken: string;
  stop(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Process groups still running; killed on exit so a crashed run leaves no workerd behind. */
const liveGroups = new Set<number>();
process.once("exit", () => {
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // npx → sh → wrangler → workerd: signalling npx alone would orphan the rest, so the whole group.
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** A port on 127.0.0.1 that is free right now, never 8787 and none of `taken`. */
async function freePort(taken: number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await listenOnce(0);
    if (port !== DEV_PORT && !taken.includes(port)) return port;
  }
  throw new Error("Could not find a free port on 127.0.0.1.");
}

/** Spawned output is kept short: enough for an error message, bounded however chatty wrangler is. */
function tailCollector(child: ChildProcess): () => string {
  let tail = "";
  const collect = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-LOG_TAIL_CHARS);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  return () => tail;
}

/** Runs a command to completion (async, so vitest's worker stays responsive meanwhile). */
function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", args, { cwd: ROOT, env, detached: true, stdio: "pipe" });
    const output = tailCollector(child);
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    const timer = setTimeout(() => {
      if (pid !== undefined) killGroup(pid, "SIGKILL");
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`npx ${args.join(" ")} could not start: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (pid !== undefined) liveGroups.delete(pid);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `npx ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output()}`.trimEnd(),
          ),
        );
    });
  });
}

/**
 * Applies the D1 migrations into a fresh temporary persist dir and starts `wrangler dev` on a free
 * port of 127.0.0.1 with random OPERATOR_TOKEN and SECRETS_KEY, then waits for `GET /health`.
 * @returns the server's base URL, its operator token and `stop()` (kills it, removes the temp dir)
 * @throws {Error} with the tail of wrangler's output when migrations fail or /health does not
 *   answer 200 within 90 s (the server is stopped first)
 */
export async function startWranglerServer(): Promise<WranglerServer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-browser-"));
  const persistDir = path.join(tmp, "state");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // CI=true: wrangler applies migrations without asking and never prompts.
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    // Our own registry, so this instance does not replace a `wrangler dev` of the same worker.
    WRANGLER_REGISTRY_PATH: path.join(tmp, "registry"),
    // Node 24 first: the machine's own node is too old for wrangler.
    PATH: [
      path.join(ROOT, "node_modules", ".bin"),
      path.dirname(process.execPath),
      process.env.PATH ?? "",
    ].join(path.delimiter),
  };
  const removeTmp = () => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });

  try {
    await run(
      ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir],
      env,
      MIGRATIONS_TIMEOUT_MS,
    );
  } catch (error) {
    removeTmp();
    throw error;
  }

  const port = await freePort();
  const inspectorPort = await freePort([port]);
  const operatorToken = randomBytes(32).toString("hex");
  const secretsKey = randomBytes(32).toString("base64");
  // An empty --env-file keeps wrangler from reading (and watching) the project's .dev.vars.
  const envFile = path.join(tmp, "empty.env");
  fs.writeFileSync(envFile, "# vars are passed with --var\n");
  const args = [
    "wrangler",
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persistDir,
    "--env-file",
    envFile,
    "--var",
    `OPERATOR_TOKEN:${operatorToken}`,
    "--var",
    `SECRETS_KEY:${secretsKey}`,
    "--show-interactive-dev-session=false",
    "--log-level",
    "warn",
    "--inspector-port",
    String(inspectorPort),
  ];
  // detached: npx, wrangler and workerd form one process group, stopped together.
  const child = spawn("npx", args, { cwd: ROOT, env, detached: true, stdio: "pipe" });
  const output = tailCollector(child);
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  const pid = child.pid;
  if (pid !== undefined) liveGroups.add(pid);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (pid !== undefined) {
        killGroup(pid, "SIGTERM");
        await Promise.race([exited, sleep(STOP_GRACE_MS)]);
        // workerd may still be shutting down after npx has gone.
        killGroup(pid, "SIGKILL");
        liveGroups.delete(pid);
      }
      removeTmp();
    })();
    return stopped;
  };

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (spawnError) {
      await stop();
      throw new Error(`wrangler dev could not start: ${spawnError.message}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited before /health answered:\n${output()}`);
    }
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => null,
    );
    // Only the status matters; an unread body would hold the connection open.
    void res?.body?.cancel().catch(() => {});
    if (res?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `GET ${base}/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s` +
          ` (last: ${res ? res.status : "no answer"}). wrangler output:\n${output()}`,
      );
    }
    await sleep(500);
  }
  return { base, operatorToken, stop };
}
