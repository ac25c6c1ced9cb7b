// `npm run deploy [-- --dry-run [--outdir <dir>]]`: the whole deploy in one command
// (docs/operations.md#deploy). Builds and bundles the Worker first (`wrangler deploy --dry-run`),
// then, on the account: checks that the Worker's required secrets exist (naming the missing ones,
// never reading a value), creates the D1 database and the queues of wrangler.toml when they are
// missing, applies the D1 migrations and deploys. Run again, it creates nothing. `--dry-run` does
// only what needs no account: the build and bundle, and the migrations applied to a fresh local
// database (CI runs it).
//
// wrangler is the `wrangler` first on PATH (`npm run` puts the project's own first; a test puts a
// fake there). Every command it runs is printed; stdin is never a terminal, so wrangler asks
// nothing (`wrangler d1 migrations apply` applies without its prompt).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.join(import.meta.dirname, "..");
const CONFIG = path.join(ROOT, "wrangler.toml");

/** Secrets the Worker refuses to work without (src/platform/config.ts, .dev.vars.example). */
const REQUIRED_SECRETS = ["OPERATOR_TOKEN", "SECRETS_KEY"];
/** Secrets that only switch something on when set (docs/api/conversations.md#replies). */
const OPTIONAL_SECRETS = ["LLM_API_KEY"];

/** What deploying needs to know of wrangler.toml, as wrangler itself reads it. */
async function readConfig() {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: CONFIG });
  const database = config.d1_databases.find((d1) => d1.binding === "DB");
  if (!database?.database_name) throw new Error("wrangler.toml has no D1 binding DB with a name.");
  const queues = [
    ...(config.queues.producers ?? []).map((producer) => producer.queue),
    ...(config.queues.consumers ?? []).map((consumer) => consumer.queue),
  ];
  const migrationsDir = path.join(ROOT, database.migrations_dir ?? "migrations");
  const migrations = fs.readdirSync(migrationsDir).filter((name) => name.endsWith(".sql"));
  return {
    worker: config.name,
    database: { name: database.database_name, id: database.database_id },
    queues: [...new Set(queues)],
    migrations: migrations.length,
  };
}

/** A failed step: its message is printed as is, and the run exits 1. */
class StepFailed extends Error {}

/**
 * Runs `wrangler <args>` to its end. `show`: its output goes to ours as it comes (long
 * commands); otherwise it is only kept. @returns its exit code and output
 */
function wrangler(args, { show = false } = {}) {
  console.log(`[deploy]   $ wrangler ${args.join(" ")}`);
  const PATH = [process.env.PATH ?? "", path.join(ROOT, "node_modules", ".bin")].join(
    path.delimiter,
  );
  return new Promise((resolve, reject) => {
    const child = spawn("wrangler", args, {
      cwd: ROOT,
      env: { ...process.env, PATH },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (show) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (show) process.stderr.write(chunk);
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** wrangler's output of a failed command, for the message that ends the run. */
const failure = (what, run) =>
  new StepFailed(
    `${what} failed (wrangler exited ${run.code}):\n${(run.stderr || run.stdout).trim()}`,
  );

/** Runs wrangler and expects it to succeed. */
async function must(what, args, options) {
  const run = await wrangler(args, options);
  if (run.code !== 0) throw failure(what, run);
  return run;
}

/** The JSON a `--json` / `--format json` command printed (wrangler may print notices before it). */
function jsonOf(what, run) {
  const start = run.stdout.search(/^[[{]/m);
  try {
    return JSON.parse(run.stdout.slice(Math.max(start, 0)));
  } catch {
    throw new StepFailed(`${what}: wrangler's answer is not JSON:\n${run.stdout.trim()}`);
  }
}

/** Builds the client and bundles the Worker as a deploy uploads it, into `outdir`. */
async function bundle(outdir) {
  const run = await must("Building the Worker", ["deploy", "--dry-run", "--outdir", outdir]);
  const size = /Total Upload: .*$/m.exec(run.stdout)?.[0];
  if (!fs.existsSync(path.join(outdir, "index.js")))
    throw new StepFailed(`Building the Worker wrote no ${path.join(outdir, "index.js")}.`);
  return size ?? "bundled";
}

/** Names of the Worker's secrets, or none when the Worker does not exist yet. */
async function secretNames(worker) {
  const run = await wrangler(["secret", "list", "--format", "json"]);
  if (run.code !== 0) {
    // wrangler's words for a Worker the account does not have yet (`wrangler secret list`).
    if (/Worker "[^"]+".* not found/.test(run.stderr + run.stdout))
      return { exists: false, names: [] };
    throw failure(`Listing the secrets of ${worker}`, run);
  }
  const list = jsonOf("wrangler secret list", run);
  return { exists: true, names: list.map((secret) => secret.name) };
}

/** Stops the run when a required secret is missing; only names are read, never values. */
async function checkSecrets(config) {
  const { exists, names } = await secretNames(config.worker);
  const missing = REQUIRED_SECRETS.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    const how = missing.map((name) => `  npx wrangler secret put ${name}`).join("\n");
    throw new StepFailed(
      [
        `Missing secret${missing.length > 1 ? "s" : ""} of the Worker ${config.worker}: ${missing.join(", ")}.`,
        exists ? "" : `(The Worker does not exist yet; \`wrangler secret put\` creates it.)`,
        `Set each (docs/operations.md#secrets), then run npm run deploy again:\n${how}`,
        "Nothing was created or deployed.",
      ]
        .filter(Boolean)
        .join("\n"),
    );
  }
  const optional = OPTIONAL_SECRETS.filter((name) => !names.includes(name));
  return `${REQUIRED_SECRETS.join(", ")} set${optional.length ? ` (optional, not set: ${optional.join(", ")})` : ""}`;
}

/** Creates the D1 database unless the account has it. */
async function ensureDatabase({ database }) {
  const list = jsonOf(
    "wrangler d1 list",
    await must("Listing D1 databases", ["d1", "list", "--json"]),
  );
  const found = list.find((db) => db.name === database.name);
  if (database.id && found?.uuid !== database.id) {
    throw new StepFailed(
      `wrangler.toml names the D1 database ${database.name} with database_id ${database.id}, which this account does not have.`,
    );
  }
  if (found) return `${database.name} exists (${found.uuid})`;
  await must(`Creating the D1 database ${database.name}`, ["d1", "create", database.name]);
  return `${database.name} created`;
}

/** Creates each queue unless the account has it. */
async function ensureQueues({ queues }) {
  const done = [];
  for (const queue of queues) {
    const info = await wrangler(["queues", "info", queue]);
    if (info.code === 0) {
      done.push(`${queue} exists`);
      continue;
    }
    if (!/does not exist/i.test(info.stderr + info.stdout))
      throw failure(`Reading queue ${queue}`, info);
    await must(`Creating the queue ${queue}`, ["queues", "create", queue]);
    done.push(`${queue} created`);
  }
  return done.join("; ");
}

/**
 * The deploy, step by step; each step prints its outcome and time.
 * @param {{ dryRun?: boolean, outdir?: string }} options
 * @returns {Promise<number>} the exit code
 */
async function deploy({ dryRun = false, outdir } = {}) {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-deploy-"));
  const step = async (title, run) => {
    const at = Date.now();
    console.log(`[deploy] ${title}...`);
    const outcome = await run();
    console.log(`[deploy] ✓ ${title}: ${outcome} (${((Date.now() - at) / 1000).toFixed(1)} s)`);
  };
  try {
    const config = await readConfig();
    await step("Build and bundle the Worker", () => bundle(outdir ?? path.join(tmp, "worker")));
    if (dryRun) {
      await step(
        `Apply the ${config.migrations} D1 migrations to a fresh local database`,
        async () => {
          await must("Applying the migrations locally", [
            "d1",
            "migrations",
            "apply",
            "DB",
            "--local",
            "--persist-to",
            path.join(tmp, "state"),
          ]);
          return "applied";
        },
      );
      console.log(
        [
          "[deploy] --dry-run: nothing on the account was read or changed. A deploy would:",
          `[deploy]   check the secrets ${REQUIRED_SECRETS.join(", ")} of the Worker ${config.worker}`,
          `[deploy]   create unless present: the D1 database ${config.database.name}, the queue ${config.queues.join(", ")}`,
          `[deploy]   apply the ${config.migrations} migrations to ${config.database.name} and deploy ${config.worker}`,
        ].join("\n"),
      );
      return 0;
    }
    await step("Check the Worker's secrets", () => checkSecrets(config));
    await step("D1 database", () => ensureDatabase(config));
    await step("Queues", () => ensureQueues(config));
    await step("Apply the D1 migrations", async () => {
      const run = await must(
        "Applying the migrations",
        ["d1", "migrations", "apply", "DB", "--remote"],
        { show: true },
      );
      return /No migrations to apply/.test(run.stdout) ? "none to apply" : "applied";
    });
    let url = "";
    await step(`Deploy ${config.worker}`, async () => {
      const run = await must("Deploying", ["deploy"], { show: true });
      url = /https:\/\/\S+\.workers\.dev/.exec(run.stdout)?.[0] ?? "";
      return url ? `live at ${url}` : "deployed";
    });
    const total = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`[deploy] Done in ${total} s. Check it end to end (docs/operations.md#smoke):`);
    console.log(`[deploy]   OPERATOR_TOKEN=… npm run smoke -- ${url || "https://<host>"}`);
    return 0;
  } catch (error) {
    console.error(`[deploy] ✗ ${error instanceof StepFailed ? error.message : error}`);
    return 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Reads `--dry-run` and `--outdir <dir>`. @throws {Error} for anything else */
function parseArgs(argv) {
  const options = { dryRun: false, outdir: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--dry-run") options.dryRun = true;
    else if (argv[i] === "--outdir" && argv[i + 1]) options.outdir = path.resolve(argv[++i]);
    else
      throw new Error(
        `Unknown option ${argv[i]}. Usage: npm run deploy [-- --dry-run [--outdir <dir>]]`,
      );
  }
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(`[deploy] ${error.message}`);
  process.exit(2);
}
process.exit(await deploy(options));
