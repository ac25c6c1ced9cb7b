/**
 * Benchmark (`npm run bench`, docs/performance.md#benchmark): the Worker as a deploy uploads it,
 * served by workerd directly (scripts/bench/workerd.mjs: the Miniflare API, no `wrangler dev`
 * proxy), on 127.0.0.1. Four groups, each on a fresh server with its own `GET /health` reference:
 * - launch: create, create with an event endpoint listening, look-up, revoke, idempotent replay,
 *   list (a search in a workspace of BENCH_LIST_LINKS links), look-up of links no ledger has seen;
 * - webhooks: immediate, lastNode, with `verify` (GitHub), with `dedupe`, with `debounce` and
 *   `batch`, on 1, 2 and 4 runner shards; then the hold test;
 * - chat: a person's message over the socket, round trip to the agent's final message;
 * - floor: the runtime's own cost of the steps a call cannot skip (scripts/bench/floor.mjs), a
 *   chat round trip's included.
 * Then the capacity of one object (`capacity`: the ledger's creates, one runner's calls, a second,
 * before p99 passes 100 ms). Each: req/s, p50/p99 latency, workerd CPU µs per call (from /proc),
 * RSS, non-2xx, judged against docs/performance.md's targets, and the CPU over that of the floor
 * step bounding it in the same run (`÷ floor`). Flags:
 * - `--peer node-red`: Node-RED (pinned, installed once into .cache/) runs the same webhook flow,
 *   in memory and with a SQLite record per execution, under the same load; ratios printed.
 * - `--profile`: a V8 CPU profile per scenario into bench-results/profiles/ (unminified build).
 * Settings: BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_ONLY=<scenario,…>,
 * BENCH_HOLD_CALLERS (1,000; 0 skips), BENCH_LIST_LINKS (100,000). Every run is bounded in time;
 * every loop in count. Writes bench-results/bench.json. Exit 0 once measured, even when a target
 * fails; 1 when a server or seeding failed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { capacity } from "./bench/capacity.mjs";
import {
  conversationsFor,
  measureChat,
  modelVars,
  openConversations,
  startModel,
} from "./bench/chat.mjs";
import { floorScenarios, startFloor } from "./bench/floor.mjs";
import { hold } from "./bench/hold.mjs";
import {
  eventReceiver,
  insertLinks,
  LIST_SCENARIOS,
  launchScenarios,
  seedLaunch,
} from "./bench/launch.mjs";
import { drive, measure } from "./bench/load.mjs";
import { peerRows } from "./bench/peer.mjs";
import { hottest, openProfiler } from "./bench/profile.mjs";
import { CPU_TARGETS, judge, printResults, relateToFloor } from "./bench/report.mjs";
import { oneRunnerRequest, shardScenarios, webhookScenarios } from "./bench/webhooks.mjs";
import { benchVars, buildWorker, startupMs, startWorkerd } from "./bench/workerd.mjs";
import { seedWorkflows } from "./bench/workflows.mjs";
import { seedDemoWorkspace } from "./demo-seed.mjs";
import { choosePort, fetchApi, ROOT } from "./local-server.mjs";

const int = (value, fallback) =>
  Number.isSafeInteger(Number(value)) && Number(value) >= 0 && value !== ""
    ? Number(value)
    : fallback;
const SECONDS = int(process.env.BENCH_SECONDS, 10) || 10;
const CONNECTIONS = int(process.env.BENCH_CONNECTIONS, 20) || 20;
const WARMUP_SECONDS = 2;
const HOLD_CALLERS = int(process.env.BENCH_HOLD_CALLERS, 1000);
const LIST_LINKS = int(process.env.BENCH_LIST_LINKS, 100_000);
const ONLY = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const PEER = process.argv.includes("--peer")
  ? process.argv[process.argv.indexOf("--peer") + 1]
  : null;
const PROFILE = process.argv.includes("--profile");
const RESULTS = path.join(ROOT, "bench-results");
const wanted = (name) => !ONLY || ONLY.includes(name);

/**
 * Runs the group's scenarios on a fresh server (`start`, given the inspector's port when profiling);
 * `prepare` seeds it and returns the scenarios.
 */
async function group(name, { start, worker }, port, prepare) {
  const inspectorPort = PROFILE ? await choosePort(undefined, [port]) : undefined;
  const server = await start(inspectorPort);
  const profiler = PROFILE ? await openProfiler(inspectorPort, worker) : null;
  const rows = [];
  try {
    const { scenarios, after } = await prepare(server);
    const reference = { name: "health", expect: 200, request: { method: "GET", path: "/health" } };
    for (const s of [reference, ...scenarios.filter((s) => wanted(s.name))]) {
      await s.before?.(rows);
      // The profile covers the recorded calls only (a custom run's, all of it).
      let profile = null;
      const recording = profiler && {
        start: () => profiler.start(),
        stop: async () => {
          profile = await profiler.stop();
        },
      };
      if (s.run) await recording?.start();
      const row = s.run
        ? await s.run(server)
        : await measure({
            base: server.base,
            pid: server.pid,
            request: s.request,
            expect: s.expect,
            seconds: SECONDS,
            warmupSeconds: WARMUP_SECONDS,
            connections: CONNECTIONS,
            recording,
          });
      if (s.run) await recording?.stop();
      if (profile) {
        fs.mkdirSync(path.join(RESULTS, "profiles"), { recursive: true });
        const file = path.join(RESULTS, "profiles", `${name}-${s.name}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        row.hottest = hottest(profile, 8);
      }
      rows.push({
        group: name,
        scenario: s.name === "health" ? `${name}: health` : s.name,
        ...row,
      });
      s.after?.(rows.at(-1));
    }
    return { rows, extra: (await after?.(server)) ?? null };
  } finally {
    profiler?.close();
    await server.stop();
  }
}

/** Our Worker as the group's server. */
const ours = (built, port, vars) => ({
  worker: "agent-edge",
  start: (inspectorPort) => startWorkerd({ script: built.script, port, vars, inspectorPort }),
});

/** Conversations a chat run is given (scripts/bench/chat.mjs). */
const CHAT_CONVERSATIONS = conversationsFor(SECONDS, CONNECTIONS);

/** A chat scenario on process `pid`'s sockets: warmed up on `warm`, recorded on `urls`. */
const chatScenario = (name, pid, warm, urls) => ({
  name,
  run: () =>
    measureChat({
      pid,
      warm,
      urls,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
    }),
});

/** Runs `use` with the model stand-in's URL, and stops the stand-in after. */
async function withModel(use) {
  const model = await startModel();
  try {
    return await use(model.url);
  } finally {
    model.close();
  }
}

/** The runtime's floor: a reference Worker of a few lines (scripts/bench/floor.mjs). */
async function floorGroup(_built, port) {
  return withModel((modelUrl) => {
    const server = {
      worker: "floor",
      start: (inspectorPort) => startFloor({ port, inspectorPort, modelUrl }),
    };
    return group("floor", server, port, async (started) => {
      const sockets = (from, count) =>
        Array.from({ length: count }, (_, n) => `ws://127.0.0.1:${port}/chat/${from + n}`);
      const chat = chatScenario(
        "floor-chat",
        started.pid,
        sockets(0, CONNECTIONS),
        sockets(CONNECTIONS, CHAT_CONVERSATIONS),
      );
      return { scenarios: [...floorScenarios, chat] };
    });
  });
}

async function launchGroup(built, port, vars) {
  return group("launch", ours(built, port, vars), port, async (server) => {
    const seeded = await seedLaunch(server.base, vars.OPERATOR_TOKEN);
    if (LIST_SCENARIOS.some(([name]) => wanted(name)) || wanted("lookup-uncached")) {
      await insertLinks(server.mf, seeded, LIST_LINKS);
      seeded.insertedLinks = LIST_LINKS;
    }
    const plan = launchScenarios(seeded);
    const create = plan.list[0];
    for (const s of plan.list.filter((s) => s.needsIds)) {
      // Look-up and revoke walk links create made: enough that every revoke finds a pending one.
      s.before = async (rows) => {
        const rate = rows.find((r) => r.scenario === "launch: health").reqPerSec;
        const missing =
          Math.ceil(rate * (WARMUP_SECONDS + SECONDS)) - (plan.ids.length - plan.cursor.revoke);
        if (missing > 0)
          await drive(server.base, create.request, {
            seconds: SECONDS * 10,
            connections: CONNECTIONS,
            amount: missing,
          });
      };
    }
    // The workspace's one ledger object: creates a second before its p99 passes 100 ms.
    const after = async () =>
      wanted("capacity") ? { ledgerCapacity: await capacity(server.base, create.request) } : null;
    return { scenarios: plan.list, after };
  });
}

async function webhooksGroup(built, port, vars) {
  return group("webhooks", ours(built, port, vars), port, async (server) => {
    const ws = await seedDemoWorkspace(fetchApi(server.base), vars.OPERATOR_TOKEN);
    const paths = await seedWorkflows(server.base, ws.memberToken);
    const after = async () => ({
      runnerCapacity: wanted("capacity")
        ? await capacity(server.base, oneRunnerRequest(paths))
        : null,
      hold:
        HOLD_CALLERS > 0 && wanted("hold")
          ? await hold(server.base, paths["bench-hold"], server.pid, HOLD_CALLERS)
          : null,
    });
    return { scenarios: [...webhookScenarios(paths), ...shardScenarios(paths)], after };
  });
}

async function chatGroup(built, port, vars) {
  return withModel((modelUrl) => {
    const chatVars = { ...vars, ...modelVars(modelUrl) };
    return group("chat", ours(built, port, chatVars), port, async (server) => {
      if (!wanted("chat")) return { scenarios: [] };
      const ws = await seedDemoWorkspace(fetchApi(server.base), vars.OPERATOR_TOKEN);
      const warm = await openConversations(server.base, ws, CONNECTIONS);
      const urls = await openConversations(server.base, ws, CHAT_CONVERSATIONS);
      return { scenarios: [chatScenario("chat", server.pid, warm, urls)] };
    });
  });
}

async function main() {
  const port = await choosePort(
    process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined,
  );
  const vars = benchVars();
  const built = buildWorker({ minify: !PROFILE });
  // BENCH_STARTUP=0 skips the start-up measure (about 15 s), for quick runs of a few scenarios.
  const startup = process.env.BENCH_STARTUP === "0" ? Number.NaN : startupMs();
  console.log(
    `bench: worker ${(built.gzipBytes / 1024).toFixed(0)} KB gzip, start-up ${startup.toFixed(0)} ms; ` +
      `${SECONDS} s per scenario, ${CONNECTIONS} connections, 127.0.0.1:${port}, ${os.cpus().length} cores`,
  );
  const groups = [];
  for (const run of [launchGroup, webhooksGroup, chatGroup, floorGroup])
    groups.push(await run(built, port, vars));
  const rows = groups.flatMap((g) => g.rows);
  const held = groups[1].extra?.hold ?? null;
  const capacities = {
    ledgerCreatesPerSecond: groups[0].extra?.ledgerCapacity ?? null,
    runnerCallsPerSecond: groups[1].extra?.runnerCapacity ?? null,
  };
  rows.forEach(judge);
  relateToFloor(rows);
  const settings = { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS };
  const peer = PEER ? await peerRows({ peer: PEER, port, wanted, settings }) : [];
  for (const p of peer) {
    const ours = rows.find((r) => r.scenario === p.scenario);
    p.oursDividedByTheirs = ours ? ours.reqPerSec / p.reqPerSec : null;
  }
  printResults({ rows, peer, held, capacities });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    machine: `${os.platform()} ${os.arch()}, ${os.cpus()[0]?.model}`,
    worker: {
      bytes: built.bytes,
      gzipBytes: built.gzipBytes,
      startupMs: startup,
      minified: !PROFILE,
    },
    settings: { ...settings, port },
    cpuTargetsMicros: CPU_TARGETS,
    eventsReceived: eventReceiver.received,
    scenarios: rows,
    peer,
    hold: held,
    capacities,
    pass: rows.every((r) => r.pass) && (held?.pass ?? true),
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, "bench.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${report.pass ? "PASS" : "FAIL"}, written to bench-results/bench.json`);
}

main().then(
  () => {
    // The browser's measures (scripts/bench-browser.mjs), on a server of their own.
    if (wanted("browser"))
      spawnSync(process.execPath, [path.join(ROOT, "scripts", "bench-browser.mjs")], {
        stdio: "inherit",
      });
    process.exit(0);
  },
  (error) => {
    console.error(`bench failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
