// One bash for one doc block (scripts/doc-test.mjs): its commands run one after the other in the
// same shell, as a reader pastes them, so variables set by one are seen by the next. Every curl
// goes through a wrapper that keeps the response's headers, so the runner knows each answer's
// status (the docs' commands print bodies only).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const END = "\x1eDOC-TEST-END";
const STEP_MS = 90_000;

/**
 * Writes the curl wrapper into `dir` (to be put first on PATH): the real curl, with `-D` into
 * `$DOC_TEST_HEADERS/<n>` and a time limit a command's own `-m` overrides.
 * @param {string} dir
 * @returns {string} the real curl's path
 * @throws {Error} when curl is not installed
 */
export function writeCurlWrapper(dir) {
  const found = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((folder) => path.join(folder, "curl"))
    .find((file) => fs.existsSync(file));
  if (!found) throw new Error("curl is not on PATH; the doc tests run the docs' curl commands.");
  fs.mkdirSync(dir, { recursive: true });
  const script = [
    "#!/bin/sh",
    "# doc tests: keep each answer's headers for its status; the command's own options win.",
    'n=$(ls "$DOC_TEST_HEADERS" | wc -l)',
    `exec '${found}' --max-time 60 -D "$DOC_TEST_HEADERS/$(printf %04d "$n")" "$@"`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "curl"), script, { mode: 0o755 });
  return found;
}

/**
 * The status and headers of the last answer that curl got during a step (the last response in
 * its last dump: after a redirect, the final one), or null when no curl ran.
 * @param {string} dir `$DOC_TEST_HEADERS`
 * @returns {{ status: number, headers: Record<string, string> } | null}
 */
export function lastAnswer(dir) {
  const files = fs.readdirSync(dir).sort();
  if (files.length === 0) return null;
  const text = fs.readFileSync(path.join(dir, files.at(-1)), "utf8");
  const responses = text.split(/\r?\n(?=HTTP\/)/);
  const last = responses.at(-1) ?? "";
  const status = Number(last.match(/^HTTP\/[\d.]+ (\d{3})/)?.[1] ?? 0);
  const headers = {};
  for (const line of last.split(/\r?\n/).slice(1)) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status, headers };
}

/**
 * Starts bash in `cwd` with `env`; `run(code)` runs a step and resolves with its exit code,
 * stdout and stderr; `close()` ends it.
 * @param {string} cwd
 * @param {Record<string, string>} env
 */
export function startShell(cwd, env) {
  const child = spawn("bash", ["--noprofile", "--norc"], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: process.platform !== "win32",
  });
  let out = "";
  let err = "";
  let waiting = null;
  child.stdout.on("data", (chunk) => {
    out += chunk.toString("utf8");
    waiting?.();
  });
  child.stderr.on("data", (chunk) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise((resolve) => child.once("close", resolve));
  void exited.then(() => waiting?.());
  return {
    /**
     * @param {string} code
     * @returns {Promise<{ exit: number | null, stdout: string, stderr: string }>} `exit` null:
     *   the step did not end within 90 s, or bash ended
     */
    run(code) {
      out = "";
      err = "";
      child.stdin.write(`${code}\nprintf '\\n${END} %d\\n' "$?"\n`);
      return new Promise((resolve) => {
        const finish = (exit) => {
          clearTimeout(timer);
          waiting = null;
          const at = out.lastIndexOf(`\n${END}`);
          resolve({ exit, stdout: at >= 0 ? out.slice(0, at) : out, stderr: err });
        };
        const timer = setTimeout(() => finish(null), STEP_MS);
        waiting = () => {
          const done = out.match(new RegExp(`\\n${END} (\\d+)\\n$`));
          if (done) finish(Number(done[1]));
          else if (child.exitCode !== null || child.signalCode !== null) finish(null);
        };
        waiting();
      });
    },
    /** Sets `name` in the shell, for the steps after. */
    set(name, value) {
      child.stdin.write(`export ${name}='${String(value).replaceAll("'", "'\\''")}'\n`);
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {} // already gone
      }, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
