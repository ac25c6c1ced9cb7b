// Node-RED settings for the benchmark's peer (scripts/bench/node-red-peer.mjs starts Node-RED with
// `--settings` pointing here and `--userDir` at a fresh temporary folder). Only what the webhook
// flow needs: HTTP nodes on 127.0.0.1, no editor or admin API, nothing that reaches the network
// (telemetry, update checks, palette or module installs), warnings only in the log, no
// credentials file to encrypt.
//
// Records: when BENCH_NODE_RED_RECORDS names a file, each execution's record is written there by
// the flow's last function node, through one prepared statement made here (handed to the flow in
// functionGlobalContext as `recordInsert`). Unset: nothing is stored, which is Node-RED's default.
const path = require("node:path");

const recordsFile = process.env.BENCH_NODE_RED_RECORDS || "";

/** The prepared INSERT of one execution record, or null in memory mode. */
function recordInsert() {
  if (!recordsFile) return null;
  const { DatabaseSync } = require("node:sqlite");
  const db = new DatabaseSync(path.resolve(recordsFile));
  // WAL with synchronous=NORMAL: a commit is an append to the log, not an fsync of the database
  // (durable against a crash of the process, not of the machine), the usual setting for a
  // service that writes a row per request; it also lets the harness count rows while we write.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec(`CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    route TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    input TEXT NOT NULL,
    output TEXT NOT NULL
  )`);
  process.once("exit", () => db.close()); // checkpoints the log into the database file
  return db.prepare(
    "INSERT INTO records (id, route, status, started_at, finished_at, input, output) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
}

module.exports = {
  flowFile: "flows.json",
  flowFilePretty: false,
  credentialSecret: false,
  uiHost: "127.0.0.1",
  // The port comes from the command line (`--port`).
  httpAdminRoot: false,
  httpNodeRoot: "/",
  disableEditor: true,
  diagnostics: { enabled: false, ui: false },
  runtimeState: { enabled: false, ui: false },
  telemetry: { enabled: false, updateNotification: false },
  externalModules: {
    autoInstall: false,
    palette: { allowInstall: false, allowUpload: false },
    modules: { allowInstall: false },
  },
  functionExternalModules: false,
  functionGlobalContext: { recordInsert: recordInsert() },
  logging: { console: { level: "warn", metrics: false, audit: false } },
  editorTheme: { projects: { enabled: false }, tours: false },
};
