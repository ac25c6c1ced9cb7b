#!/usr/bin/env node
// A stand-in for `wrangler` on an account that exists only in a JSON file ($FAKE_WRANGLER_STATE):
// what scripts/deploy.mjs asks of the account is answered as wrangler 4.155 answers it (its
// output formats and error messages, read from node_modules/wrangler/wrangler-dist/cli.js), and
// every call is recorded. Commands that need no account (`deploy --dry-run`, `d1 migrations
// apply --local`) are passed to the real wrangler, so a dry run still builds the Worker for real.
// State: {databases: [{uuid, name}], queues: [name], secrets: [name], workerExists, deployed,
// applied: [migration], calls: [[arg, …]]}.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(import.meta.dirname, "..", "..");
const statePath = process.env.FAKE_WRANGLER_STATE;
if (!statePath) throw new Error("FAKE_WRANGLER_STATE is not set");
const state = JSON.parse(fs.readFileSync(statePath, "utf8"));
const args = process.argv.slice(2);
state.calls.push(args);
const save = () => fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
save();

const out = (text) => process.stdout.write(`${text}\n`);
/** wrangler's UserError: printed on stderr, exit 1. */
const fail = (message) => {
  process.stderr.write(`\n✘ [ERROR] ${message}\n\n`);
  process.exit(1);
};
const [command, sub, ...rest] = args;
const has = (flag) => args.includes(flag);

if ((command === "deploy" && has("--dry-run")) || (command === "d1" && has("--local"))) {
  const real = path.join(ROOT, "node_modules", ".bin", "wrangler");
  const run = spawnSync(real, args, { cwd: process.cwd(), stdio: "inherit" });
  process.exit(run.status ?? 1);
}
if (!state.loggedIn) {
  fail(
    "In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN environment variable for wrangler to work.",
  );
}
const worker = "agent-edge";
const migrations = fs
  .readdirSync(path.join(ROOT, "migrations"))
  .filter((name) => name.endsWith(".sql"))
  .sort();

if (command === "d1" && sub === "list" && has("--json")) {
  const list = state.databases.map((db) => ({
    uuid: db.uuid,
    name: db.name,
    created_at: "2026-11-20T10:00:00.000Z",
    version: "production",
    num_tables: 0,
    file_size: 12288,
  }));
  out(JSON.stringify(list, null, 2));
} else if (command === "d1" && sub === "create") {
  const name = rest[0];
  if (state.databases.some((db) => db.name === name)) {
    fail(`A database with that name already exists [code: 7502]`);
  }
  const uuid = randomUUID();
  state.databases.push({ uuid, name });
  out(`✅ Successfully created DB '${name}' in region WEUR`);
  out("Created your new D1 database.\n");
  out(`[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${name}"\ndatabase_id = "${uuid}"`);
} else if (command === "queues" && sub === "info") {
  const name = rest[0];
  if (!state.queues.includes(name)) {
    fail(`Queue "${name}" does not exist. To create it, run: wrangler queues create ${name}`);
  }
  out(`Queue Name: ${name}\nQueue ID: q-${name}\nNumber of Producers: 1\nNumber of Consumers: 1`);
} else if (command === "queues" && sub === "create") {
  const name = rest[0];
  if (state.queues.includes(name)) fail(`A queue with this name already exists [code: 11009]`);
  state.queues.push(name);
  out(`🌀 Creating queue '${name}'\n✅ Created queue '${name}'`);
} else if (command === "secret" && sub === "list") {
  if (!state.workerExists) {
    fail(
      `Worker "${worker}" not found.\n\nIf this is a new Worker, run \`wrangler deploy\` first to create it.\nOtherwise, check that the Worker name is correct and you're logged into the right account.`,
    );
  }
  out(
    JSON.stringify(
      state.secrets.map((name) => ({ name, type: "secret_text" })),
      null,
      "  ",
    ),
  );
} else if (command === "d1" && sub === "migrations" && rest[0] === "apply" && has("--remote")) {
  if (!state.databases.some((db) => db.name === "agent-edge")) {
    fail(
      "Couldn't find a D1 DB named 'agent-edge' (bound as 'DB') in the API. Run 'wrangler d1 create agent-edge' to create it.",
    );
  }
  const todo = migrations.filter((name) => !state.applied.includes(name));
  if (todo.length === 0) out("✅ No migrations to apply!");
  else {
    state.applied.push(...todo);
    out(`Migrations to be applied:\n${todo.join("\n")}\n${todo.map((n) => `${n} ✅`).join("\n")}`);
  }
} else if (command === "deploy" && args.length === 1) {
  // What the real deploy would refuse: a binding to a database or queue the account lacks.
  if (!state.databases.some((db) => db.name === "agent-edge")) fail("D1 database missing");
  if (!state.queues.includes("agent-edge-event-deliveries")) fail("Queue missing");
  state.workerExists = true;
  state.deployed += 1;
  out(`Uploaded ${worker} (4.20 sec)\nDeployed ${worker} triggers (0.80 sec)`);
  out(`  https://${worker}.example.workers.dev\nCurrent Version ID: ${randomUUID()}`);
} else {
  fail(`fake wrangler: no answer for: wrangler ${args.join(" ")}`);
}
save();
