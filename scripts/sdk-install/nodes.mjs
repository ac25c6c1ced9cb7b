// The Node versions scripts/sdk-install-test.mjs runs the SDK's example on, and its look-up of the
// links the example made. Node 20 is the machine's own (npm scripts put the project's pinned
// Node 24 first in PATH, so every `node` on PATH is asked); Node 22 is npm's `node` package,
// pinned with its lockfile in ./node22/, installed once into node_modules/.cache/.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The version a Node binary reports (`v20.20.2` → `20.20.2`), or null when it does not run. */
function versionOf(path) {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, "") : null;
}

/**
 * A Node of the given major version: SDK_INSTALL_NODE<major> when set, else the first `node` in
 * one of `dirs` (PATH's folders) or /usr/bin, /usr/local/bin that reports that major.
 * @param {number} major
 * @param {string[]} dirs
 * @returns {{ path: string, version: string }}
 * @throws {Error} when there is none
 */
export function findNode(major, dirs) {
  const given = process.env[`SDK_INSTALL_NODE${major}`];
  const candidates = given
    ? [given]
    : [...dirs, "/usr/bin", "/usr/local/bin"].map((dir) => join(dir, "node"));
  for (const path of candidates) {
    const version = existsSync(path) ? versionOf(path) : null;
    if (version?.startsWith(`${major}.`)) return { path, version };
  }
  throw new Error(
    `No Node ${major} found (looked at ${candidates.join(", ")}); set SDK_INSTALL_NODE${major} to one.`,
  );
}

/**
 * Node 22 from npm's `node` package at the version locked in scripts/sdk-install/node22/,
 * installed (`npm ci`, from the npm cache when it has it) into node_modules/.cache/ unless a
 * previous run left it there.
 * @param {string} root the repository
 * @param {(command: string, args: string[], options?: { cwd?: string }) => string} run
 * @returns {{ path: string, version: string }}
 */
export function installNode22(root, run) {
  const source = join(root, "scripts", "sdk-install", "node22");
  const target = join(root, "node_modules", ".cache", "agent-edge-node22");
  const path = join(target, "node_modules", "node", "bin", "node");
  const wanted = JSON.parse(readFileSync(join(source, "package.json"), "utf8")).devDependencies
    .node;
  if (versionOf(path) !== wanted) {
    mkdirSync(target, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) {
      copyFileSync(join(source, file), join(target, file));
    }
    run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: target,
    });
  }
  const version = versionOf(path);
  if (version !== wanted) throw new Error(`${path} reports ${version}, not Node ${wanted}.`);
  return { path, version };
}

/**
 * Every link of the participant `externalId`, as the service lists them (all pages).
 * @param {string} base
 * @param {string} widgetKey
 * @param {string} externalId
 * @returns {Promise<{ id: string, status: string }[]>}
 */
export async function demoLaunchesOf(base, widgetKey, externalId) {
  const links = [];
  let cursor = "";
  for (let page = 0; page < 20; page++) {
    const query = new URLSearchParams({ externalId, limit: "100", ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${base}/v1/widget/launches?${query}`, {
      headers: { authorization: `Bearer ${widgetKey}` },
    });
    if (!response.ok) throw new Error(`GET /v1/widget/launches answered ${response.status}`);
    const body = await response.json();
    links.push(...body.data.map(({ id, status }) => ({ id, status })));
    cursor = body.nextCursor ?? "";
    if (!cursor) return links;
  }
  throw new Error("More than 20 pages of links for one participant.");
}
