/**
 * `npm run deploy` (scripts/deploy.mjs, docs/operations.md#deploy) against a fake wrangler
 * (./fake-wrangler.mjs) first on PATH, with an account that lives in a JSON file: the first run
 * creates the D1 database and the queue, applies the migrations and deploys; a second creates
 * nothing; a missing secret is named and stops the run before anything is created or deployed,
 * with no secret's value printed; `--dry-run` asks nothing of the account and still builds the
 * Worker (the fake passes the commands that need no account to the real wrangler).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const QUEUE = "agent-edge-event-deliveries";
/** The analyses of ended conversations (docs/api/conversations.md#analysis). */
const ANALYSES = "agent-edge-analyses";
const MIGRATIONS = fs.readdirSync(path.join(ROOT, "migrations")).filter((f) => f.endsWith(".sql"));
/** Values in the deploy's environment: whatever happens, none of them may be printed. */
const VALUES = {
  OPERATOR_TOKEN: `op-${crypto.randomUUID()}`,
  SECRETS_KEY: `sk-${crypto.randomUUID()}`,
};

type Account = {
  loggedIn: boolean;
  workerExists: boolean;
  databases: { uuid: string; name: string }[];
  queues: string[];
  secrets: string[];
  applied: string[];
  deployed: number;
  calls: string[][];
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-deploy-test-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
// `wrangler` on PATH is the fake, run by this Node.
const bin = path.join(tmp, "bin");
fs.mkdirSync(bin);
fs.writeFileSync(
  path.join(bin, "wrangler"),
  `#!/bin/sh\nexec "${process.execPath}" "${path.join(import.meta.dirname, "fake-wrangler.mjs")}" "$@"\n`,
  { mode: 0o755 },
);

let accounts = 0;
function account(overrides: Partial<Account> = {}): string {
  const file = path.join(tmp, `account-${++accounts}.json`);
  const fresh: Account = {
    loggedIn: true,
    workerExists: true,
    databases: [],
    queues: [],
    secrets: ["OPERATOR_TOKEN", "SECRETS_KEY"],
    applied: [],
    deployed: 0,
    calls: [],
    ...overrides,
  };
  fs.writeFileSync(file, JSON.stringify(fresh));
  return file;
}

const read = (file: string): Account => JSON.parse(fs.readFileSync(file, "utf8"));

/** Runs `node scripts/deploy.mjs …args` against the account; its exit code, output and calls. */
async function deploy(file: string, args: string[] = []) {
  const before = read(file).calls.length;
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "deploy.mjs"), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...VALUES,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      FAKE_WRANGLER_STATE: file,
      // dist/client is built already (npm test builds it first): wrangler's [build] step leaves
      // it as it is, so a server the other spec file runs keeps serving the same files.
      AGENT_EDGE_PREBUILT: "1",
      WRANGLER_SEND_METRICS: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const state = read(file);
  for (const value of Object.values(VALUES)) expect(output).not.toContain(value);
  return { code, output, state, calls: state.calls.slice(before).map((call) => call.join(" ")) };
}

/** Calls that change the account: creating, migrating, deploying. */
const changes = (calls: string[]) =>
  calls.filter((call) =>
    /^(?:(?:d1|queues) create |d1 migrations apply DB --remote$|deploy$)/.test(call),
  );

describe("npm run deploy", () => {
  it("creates the database and the queues, applies the migrations and deploys; run again, it creates nothing", async () => {
    const file = account();
    const first = await deploy(file);
    expect(first.code, first.output).toBe(0);
    expect(first.state.databases.map((db) => db.name)).toEqual(["agent-edge"]);
    expect(first.state.queues).toEqual([QUEUE, ANALYSES]);
    expect(first.state.applied.sort()).toEqual(MIGRATIONS.sort());
    expect(first.state.deployed).toBe(1);
    // In order: the build, the secrets, what is missing, the migrations, the deploy.
    expect(first.calls.map((call) => call.replace(/--outdir \S+/, "--outdir X"))).toEqual([
      "deploy --dry-run --outdir X",
      "secret list --format json",
      "d1 list --json",
      "d1 create agent-edge",
      `queues info ${QUEUE}`,
      `queues create ${QUEUE}`,
      `queues info ${ANALYSES}`,
      `queues create ${ANALYSES}`,
      "d1 migrations apply DB --remote",
      "deploy",
    ]);
    expect(first.output).toContain("✓ D1 database: agent-edge created");
    expect(first.output).toContain(`✓ Queues: ${QUEUE} created; ${ANALYSES} created`);
    expect(first.output).toContain("https://agent-edge.example.workers.dev");

    const second = await deploy(file);
    expect(second.code, second.output).toBe(0);
    expect(changes(second.calls)).toEqual(["d1 migrations apply DB --remote", "deploy"]);
    expect(second.state.databases).toEqual(first.state.databases);
    expect(second.state.queues).toEqual([QUEUE, ANALYSES]);
    expect(second.state.deployed).toBe(2);
    expect(second.output).toContain(
      `✓ D1 database: agent-edge exists (${first.state.databases[0]?.uuid})`,
    );
    expect(second.output).toContain(`✓ Queues: ${QUEUE} exists; ${ANALYSES} exists`);
    expect(second.output).toContain("none to apply");
  });

  it("names the missing secrets and creates and deploys nothing, printing no value", async () => {
    const file = account({ secrets: ["SECRETS_KEY", "LLM_API_KEY"] });
    const run = await deploy(file);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/Missing secret of the Worker agent-edge: OPERATOR_TOKEN\./);
    expect(run.output).toContain("npx wrangler secret put OPERATOR_TOKEN");
    expect(run.output).not.toContain("secret put SECRETS_KEY");
    expect(changes(run.calls)).toEqual([]);
    expect(run.state).toMatchObject({ databases: [], queues: [], applied: [], deployed: 0 });

    // A Worker that does not exist yet has no secrets at all: both are named.
    const fresh = account({ workerExists: false, secrets: [] });
    const none = await deploy(fresh);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(
      /Missing secrets of the Worker agent-edge: OPERATOR_TOKEN, SECRETS_KEY\./,
    );
    expect(none.output).toContain("does not exist yet");
    expect(changes(none.calls)).toEqual([]);
  });

  it("stops at a failing wrangler command with its message", async () => {
    const run = await deploy(account({ loggedIn: false }));
    expect(run.code).toBe(1);
    expect(run.output).toContain("CLOUDFLARE_API_TOKEN");
    expect(changes(run.calls)).toEqual([]);
  });

  it("--dry-run asks nothing of the account and still builds the Worker and applies the migrations locally", async () => {
    // Signed out: any call that needs the account would fail the run.
    const file = account({ loggedIn: false });
    const outdir = path.join(tmp, "dry-run-worker");
    const run = await deploy(file, ["--dry-run", "--outdir", outdir]);
    expect(run.code, run.output).toBe(0);
    expect(run.calls.map((call) => call.replace(/ \/\S+/g, " <dir>"))).toEqual([
      "deploy --dry-run --outdir <dir>",
      "d1 migrations apply DB --local --persist-to <dir>",
    ]);
    // The bundle a deploy would upload, with the Worker's own code in it.
    const script = fs.readFileSync(path.join(outdir, "index.js"), "utf8");
    expect(script.length).toBeGreaterThan(100_000);
    expect(script).toContain("LinkLedger");
    expect(run.output).toMatch(/Total Upload: .* gzip/);
    expect(run.output).toContain(
      `Apply the ${MIGRATIONS.length} D1 migrations to a fresh local database: applied`,
    );
    expect(run.output).toContain("nothing on the account was read or changed");
  });
});
