// What `npm run bench` prints: our scenarios against their targets, the peer's figures and our
// ratio to them, the hold test, one object's capacity, and each profile's hottest functions.
import { printTable } from "./load.mjs";

/** Workerd CPU per call, at most (µs): docs/performance.md#targets. All scenarios: zero 5xx. */
export const CPU_TARGETS = {
  create: 700,
  lookup: 400,
  revoke: 400,
  "webhook-immediate": 400,
  "webhook-lastNode": 400,
  chat: 500,
};

/**
 * The step of the runtime's floor (scripts/bench/floor.mjs) that bounds each scenario of ours: the
 * same work with none of our code, measured in the same run (docs/performance.md#the-runtimes-floor).
 * Create and revoke write D1: their floor is the write step, and the read step (a D1 statement that
 * writes nothing) is reported beside it as their second floor. The look-up's second floor,
 * floor-lookup, adds to floor-rpc what the contract asks of every look-up (the key's header, the
 * count kept, the four answer headers).
 */
export const FLOOR_OF = {
  "launch: health": "floor: health",
  "webhooks: health": "floor: health",
  "chat: health": "floor: health",
  lookup: ["floor-rpc", "floor-lookup"],
  create: ["floor-rpc-d1-write", "floor-rpc-d1"],
  revoke: ["floor-rpc-d1-write", "floor-rpc-d1"],
  "lookup-uncached": "floor-rpc-d1",
  "webhook-immediate": "floor-rpc-put",
  "webhook-lastNode": "floor-rpc-put",
  "webhook-verify": "floor-rpc-put",
  "webhook-dedupe": "floor-rpc-put",
  "webhook-debounce": "floor-rpc-put",
  "webhook-batch": "floor-rpc-put",
  chat: "floor-chat",
};

/**
 * Sets each row's `cpuOverFloor`: its CPU per call over that of its floor step in the same run
 * (null without one, or when the floor group did not run), and `cpuOverSecondFloor` over its second
 * floor step, if it has one. The machine's speed moves both, so the ratio compares runs where the
 * raw figures cannot.
 */
export function relateToFloor(rows) {
  const ratio = (row, scenario) => {
    const floor = rows.find((r) => r.scenario === scenario);
    return floor ? { scenario, ratio: row.cpuMicrosPerCall / floor.cpuMicrosPerCall } : null;
  };
  for (const row of rows) {
    const [first, second] = [FLOOR_OF[row.scenario] ?? []].flat();
    const main = first ? ratio(row, first) : null;
    const other = second ? ratio(row, second) : null;
    row.floorScenario = main?.scenario ?? null;
    row.cpuOverFloor = main?.ratio ?? null;
    row.secondFloorScenario = other?.scenario ?? null;
    row.cpuOverSecondFloor = other?.ratio ?? null;
  }
}

/** Judges a row against its CPU target (and zero 5xx), saying loudly what went wrong. */
export function judge(row) {
  const target = CPU_TARGETS[row.scenario] ?? null;
  row.cpuTargetMicros = target;
  row.pass = row.status5xx === 0 && (target === null || row.cpuMicrosPerCall <= target);
  if (row.status5xx) console.error(`!!! ${row.scenario}: ${row.status5xx} answers were 5xx`);
  if (row.unexpectedStatus)
    console.error(
      `!!! ${row.scenario}: ${row.unexpectedStatus} unexpected: ${JSON.stringify(row.statusCodes ?? {})}`,
    );
}

/** Prints the run's tables (the same figures bench-results/bench.json keeps). */
export function printResults({ rows, peer, held, capacities }) {
  console.log("");
  printTable(
    [
      ["scenario", (r) => r.scenario],
      ["req/s", (r) => r.reqPerSec.toFixed(0)],
      ["p50 ms", (r) => r.latencyP50Ms],
      ["p99 ms", (r) => r.latencyP99Ms],
      ["cpu µs/call", (r) => r.cpuMicrosPerCall.toFixed(0)],
      ["target µs", (r) => r.cpuTargetMicros ?? ""],
      ["÷ floor", (r) => (r.cpuOverFloor === null ? "" : r.cpuOverFloor.toFixed(2))],
      [
        "÷ 2nd floor",
        (r) =>
          r.cpuOverSecondFloor === null
            ? ""
            : `${r.cpuOverSecondFloor.toFixed(2)} ${r.secondFloorScenario.replace("floor-", "")}`,
      ],
      ["RSS MiB", (r) => r.rssMiB.toFixed(0)],
      ["non-2xx", (r) => r.non2xx],
      ["5xx", (r) => r.status5xx],
      ["result", (r) => (r.pass ? "PASS" : "FAIL")],
    ],
    rows,
  );
  if (peer.length > 0) {
    console.log("");
    printTable(
      [
        ["peer", (p) => p.peer],
        ["scenario", (p) => p.scenario],
        ["req/s", (p) => p.reqPerSec.toFixed(0)],
        ["cpu µs/call", (p) => p.cpuMicrosPerCall.toFixed(0)],
        ["p99 ms", (p) => p.latencyP99Ms],
        ["ours ÷ theirs (req/s)", (p) => (p.oursDividedByTheirs ?? 0).toFixed(2)],
      ],
      peer,
    );
  }
  if (held)
    console.log(
      `\nhold: ${held.callers} lastNode callers on a ${held.waitSeconds} s wait: ${JSON.stringify(held.statuses)} in ` +
        `${held.seconds.toFixed(1)} s; RSS ${held.rssBeforeMiB.toFixed(0)} → ${held.rssPeakMiB.toFixed(0)} MiB ` +
        `(${held.heldMiBPerThousandCallers.toFixed(1)} MiB per 1,000 held) ${held.pass ? "PASS" : "FAIL"}`,
    );
  for (const [name, found] of Object.entries(capacities)) {
    if (!found) continue;
    const steps = found.steps.map(
      (s) => `${s.connections} conn. ${s.callsPerSecond.toFixed(0)}/s p99 ${s.p99Ms} ms`,
    );
    console.log(
      `\none object, ${name} (p99 ≤ 100 ms): ${found.callsPerSecond.toFixed(0)} (${steps.join("; ")}; ` +
        `ended: ${found.stoppedBy})`,
    );
  }
  for (const r of rows.filter((r) => r.hottest)) {
    console.log(
      `\nprofile ${r.scenario}: ${r.hottest.map((h) => `${h.name} ${h.selfPct.toFixed(1)}%`).join(", ")}`,
    );
  }
}
