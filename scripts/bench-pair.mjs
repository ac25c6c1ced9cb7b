/**
 * `npm run bench:pair` (docs/performance.md#paired-rounds): each scenario's CPU per call over its
 * floor step's, measured in alternating rounds on two live servers (ours and the floor's reference
 * Worker), so both sides of each ratio ran within seconds of each other. `npm run bench` runs the
 * floor minutes after our scenarios; on a shared machine a figure drifts by a sixth between such
 * runs, as much as the targets' margins. The median of the rounds' ratios is the figure quoted.
 *
 * Rounds are short (BENCH_SECONDS, 3 by default, after 1 s of warm-up): workerd evicts an object
 * idle for about 10 s, and an evicted ledger would answer the next look-ups from D1. The order
 * flips every round. Chat (a socket's round trip to the agent's final message, against floor-chat)
 * opens each round's conversations on both servers before its CPU is read, as `npm run bench`
 * does: a conversation takes 20 messages a minute, so none is used twice. The look-up is paired with
 * floor-rpc and with floor-lookup (its required steps), and floor-lookup's rounds over floor-rpc's
 * are reported too. Settings: BENCH_ONLY
 * (lookup,create,webhook-immediate,webhook-lastNode,chat),
 * BENCH_ROUNDS (9), BENCH_SECONDS (3), BENCH_CONNECTIONS (20). Every loop is bounded in count, every
 * run in time; both servers listen on 127.0.0.1. Writes bench-results/pair.json.
 */
import { conversationsFor, modelVars, startModel } from "./bench/chat.mjs";
import { floorScenarios, startFloor } from "./bench/floor.mjs";
import { printTable } from "./bench/load.mjs";
import {
  cpuPerCall,
  keepWarm,
  median,
  pairedSettings,
  startOurs,
  writeResult,
} from "./bench/paired.mjs";
import { FLOOR_OF } from "./bench/report.mjs";
import * as workerd from "./bench/workerd.mjs";
import { choosePort } from "./local-server.mjs";

const SETTINGS = pairedSettings({ rounds: 9 });
const { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS } = SETTINGS;
const WANTED = (process.env.BENCH_ONLY ?? "lookup,create,webhook-immediate,webhook-lastNode,chat")
  .split(",")
  .map((name) => name.trim());
/** A chat round's conversations (scripts/bench/chat.mjs). */
const CHAT_CONVERSATIONS = conversationsFor(SECONDS, CONNECTIONS);

/** floor-chat: a fresh object per socket (`/chat/<n>`), none used twice, as ours. */
function floorChat(port) {
  let next = 0;
  const sockets = (count) =>
    Array.from({ length: count }, () => `ws://127.0.0.1:${port}/chat/${next++}`);
  return {
    name: "floor-chat",
    sockets: async () => ({ warm: sockets(CONNECTIONS), urls: sockets(CHAT_CONVERSATIONS) }),
  };
}

/**
 * The floor steps a scenario is paired with: its floor (FLOOR_OF's first), and the look-up also
 * with floor-lookup, the look-up's required steps on top of floor-rpc (scripts/bench/floor.mjs).
 * Create and revoke's second floor, a D1 read, only bounds them from below and is not paired.
 */
const PAIRED_FLOORS = { lookup: ["floor-rpc", "floor-lookup"] };
const floorsOf = (name) =>
  PAIRED_FLOORS[name] ?? [FLOOR_OF[name]].flat().filter(Boolean).slice(0, 1);

/**
 * A row per floor step of the scenario (the scenario over it), and a row per later step over the
 * first (so floor-lookup over floor-rpc), each with the median of its rounds' ratios.
 * @param {Array<Record<string, number>>} rounds CPU µs per call by side (`ours`, each step's name)
 */
function pairRows(name, floors, rounds) {
  const row = (scenario, side, floorName) => {
    const pairs = rounds.map((cpu) => ({ scenario: cpu[side], floor: cpu[floorName] }));
    return {
      scenario,
      floor: floorName,
      scenarioMedian: median(pairs.map((r) => r.scenario)),
      floorMedian: median(pairs.map((r) => r.floor)),
      ratioMedian: median(pairs.map((r) => r.scenario / r.floor)),
      rounds: pairs.map((r) => ({ ...r, ratio: r.scenario / r.floor })),
    };
  };
  const [first, ...later] = floors.map((step) => step.name);
  return [
    ...floors.map((step) => row(name, "ours", step.name)),
    ...later.map((step) => row(step, step, first)),
  ];
}

async function main() {
  // The agent's model, for chat: a stand-in on 127.0.0.1 that streams a short reply at once.
  const model = await startModel();
  const vars = { ...workerd.benchVars(), ...modelVars(model.url) };
  const oursPort = await choosePort();
  const floorPort = await choosePort(undefined, [oursPort]);
  // First: the CPU read is of the newest workerd this process started (scripts/bench/workerd.mjs).
  const floor = await startFloor({ port: floorPort, modelUrl: model.url });
  const ours = await startOurs({
    workerd,
    port: oursPort,
    vars,
    wanted: WANTED,
    connections: CONNECTIONS,
    conversations: CHAT_CONVERSATIONS,
  }).catch(async (error) => {
    await floor.stop();
    model.close();
    throw error;
  });
  const steps = [...floorScenarios, floorChat(floorPort)];
  const rows = [];
  try {
    for (const name of WANTED) {
      const scenario = ours.scenarios.find((s) => s.name === name);
      const floors = floorsOf(name).map((floorName) => steps.find((s) => s.name === floorName));
      if (!scenario || floors.length === 0 || floors.some((step) => !step)) {
        throw new Error(`${name}: no such scenario, or no floor step`);
      }
      const rounds = [];
      for (let round = 0; round < ROUNDS; round++) {
        const sides = [["ours", ours.server, scenario], ...floors.map((s) => [s.name, floor, s])];
        if (round % 2 === 1) sides.reverse();
        const cpu = {};
        for (const [side, server, s] of sides) {
          const stop = side === "ours" ? () => {} : keepWarm(ours.server, scenario);
          try {
            cpu[side] = await cpuPerCall(server, s, { seconds: SECONDS, connections: CONNECTIONS });
          } finally {
            stop();
          }
        }
        rounds.push(cpu);
      }
      rows.push(...pairRows(name, floors, rounds));
    }
  } finally {
    await ours.server.stop();
    await floor.stop();
    model.close();
  }
  printTable(
    [
      ["scenario", (r) => r.scenario],
      ["floor step", (r) => r.floor],
      ["scenario µs", (r) => r.scenarioMedian.toFixed(0)],
      ["floor µs", (r) => r.floorMedian.toFixed(0)],
      ["÷ floor, median", (r) => r.ratioMedian.toFixed(2)],
      ["each round", (r) => r.rounds.map((x) => x.ratio.toFixed(2)).join(" ")],
    ],
    rows,
  );
  writeResult("pair.json", {
    date: new Date().toISOString(),
    settings: SETTINGS,
    scenarios: rows,
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench:pair failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
