/**
 * `npm run bench:ab` (docs/performance.md#two-builds-side-by-side): one scenario of two builds of
 * the Worker, this checkout's (A) and another checkout's (B: BENCH_B, the path of a clone or a git
 * worktree with a change to judge), measured in alternating rounds on two live servers. Each round
 * gives B's CPU per call over A's; the median of the rounds' ratios is the figure (below 1: B is
 * cheaper). A change of a few percent is within `npm run bench:pair`'s noise against the floor;
 * two builds of ours under the same load in the same seconds show it. Both builds get the same
 * load (this checkout's scenarios) and the same vars; B is built with its own wrangler.toml and
 * migrations, and needs its own `node_modules` (a worktree can link this one's).
 *
 * Rounds are short for the reason `bench:pair`'s are (workerd evicts an idle object after about
 * 10 s), the order flips every round, and the side not measured gets one call a second. Settings:
 * BENCH_B (required), BENCH_ONLY (one of lookup, create, webhook-immediate, webhook-lastNode,
 * chat; lookup), BENCH_ROUNDS (12), BENCH_SECONDS (3), BENCH_CONNECTIONS (20). Every loop is
 * bounded in count, every run in time; both servers listen on 127.0.0.1. Writes
 * bench-results/ab.json.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { conversationsFor, modelVars, startModel } from "./bench/chat.mjs";
import {
  cpuPerCall,
  keepWarm,
  median,
  pairedSettings,
  startOurs,
  writeResult,
} from "./bench/paired.mjs";
import * as workerdA from "./bench/workerd.mjs";
import { choosePort, ROOT } from "./local-server.mjs";

const SETTINGS = pairedSettings({ rounds: 12 });
const { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS } = SETTINGS;
const NAME = (process.env.BENCH_ONLY ?? "lookup").trim();
const SCENARIOS = ["lookup", "create", "webhook-immediate", "webhook-lastNode", "chat"];

/** B's `scripts/bench/workerd.mjs`, which builds and serves B with B's own files. */
async function workerdOf(checkout) {
  const module = path.resolve(checkout ?? "", "scripts", "bench", "workerd.mjs");
  if (!checkout || !fs.existsSync(module)) {
    throw new Error(
      "BENCH_B must be the path of another checkout of this project (a clone or a worktree)",
    );
  }
  if (path.resolve(checkout) === ROOT)
    throw new Error("BENCH_B is this checkout: nothing to compare");
  return import(pathToFileURL(module).href);
}

async function main() {
  if (!SCENARIOS.includes(NAME)) {
    throw new Error(`BENCH_ONLY must be one scenario of ${SCENARIOS.join(", ")}`);
  }
  const workerdB = await workerdOf(process.env.BENCH_B);
  const model = await startModel();
  const vars = { ...workerdA.benchVars(), ...modelVars(model.url) };
  const conversations = conversationsFor(SECONDS, CONNECTIONS);
  const sides = [];
  const warming = [];
  try {
    // Both are built first: a build blocks this process, so nothing could keep A warm meanwhile.
    const builds = [
      ["A", workerdA],
      ["B", workerdB],
    ].map(([label, workerd]) => ({
      label,
      workerd,
      script: workerd.buildWorker({ minify: true }).script,
    }));
    for (const { label, workerd, script } of builds) {
      const port = await choosePort(
        undefined,
        sides.map((side) => side.port),
      );
      const ours = await startOurs({
        workerd,
        script,
        port,
        vars,
        wanted: [NAME],
        connections: CONNECTIONS,
        conversations,
      });
      const scenario = ours.scenarios.find((s) => s.name === NAME);
      sides.push({ label, port, server: ours.server, scenario });
      // A waits while B is seeded (a minute for the look-up's links): an evicted ledger would
      // answer A's first rounds from D1.
      warming.push(keepWarm(ours.server, scenario));
    }
    for (const stop of warming.splice(0)) stop();
    // Each side's CPU is read from its own workerd (the newest one started when it started).
    if (sides[0].server.pid === sides[1].server.pid)
      throw new Error("A and B share a workerd process");
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const cpu = {};
      for (const side of order) {
        const other = sides.find((s) => s !== side);
        const stop = keepWarm(other.server, other.scenario);
        try {
          cpu[side.label] = await cpuPerCall(side.server, side.scenario, {
            seconds: SECONDS,
            connections: CONNECTIONS,
          });
        } finally {
          stop();
        }
      }
      rounds.push({ ...cpu, ratio: cpu.B / cpu.A });
      console.log(
        `round ${round + 1}: A ${cpu.A.toFixed(0)} µs, B ${cpu.B.toFixed(0)} µs, B/A ${(cpu.B / cpu.A).toFixed(3)}`,
      );
    }
    const ratios = rounds.map((r) => r.ratio);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `${NAME}: B/A ${median(ratios).toFixed(3)} (median of ${ROUNDS} rounds; ${sorted[0].toFixed(2)} to ${sorted.at(-1).toFixed(2)})`,
    );
    writeResult("ab.json", {
      date: new Date().toISOString(),
      scenario: NAME,
      b: path.resolve(process.env.BENCH_B),
      settings: SETTINGS,
      ratioMedian: median(ratios),
      rounds,
    });
  } finally {
    for (const stop of warming) stop();
    for (const side of sides) await side.server.stop();
    model.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench:ab failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
