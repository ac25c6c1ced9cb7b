// The benchmark's load and its readings: autocannon on 127.0.0.1, bounded in time (and count when
// asked), and the server process's CPU time and resident memory read from /proc, so a figure says
// what the server spent per call whatever else the machine does.
import fs from "node:fs";
import autocannon from "autocannon";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux

/** CPU time (ms, user + system, all threads) process `pid` has used so far. */
export function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised name; utime and stime are the 14th and 15th of the line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CPU time (ms) of `pid` once it is idle again (under 2 ms in 100 ms, waited for 10 s at most):
 * work a server goes on with after answering (an immediate webhook's run) is part of a call.
 */
export async function settledCpuMs(pid) {
  let last = cpuMs(pid);
  for (let waited = 0; waited < 10_000; waited += 100) {
    await sleep(100);
    const now = cpuMs(pid);
    if (now - last < 2) return now;
    last = now;
  }
  return last;
}

/** Resident memory of process `pid`, in MiB. */
export function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Drives one request shape at `base` with `connections` for `seconds`, or until `amount`
 * requests when given (the duration then only bounds it), at `overallRate` calls a second in all
 * when given. Resolves to autocannon's result.
 * @param {string} base
 * @param {object} request an autocannon request (method, path, headers, body, setupRequest, onResponse)
 * @param {{ seconds: number, connections: number, amount?: number }} options
 */
export function drive(base, request, { seconds, connections, amount, overallRate }) {
  return new Promise((resolve, reject) => {
    const options = { url: base, connections, duration: seconds, requests: [request] };
    if (amount !== undefined) options.amount = amount;
    if (overallRate !== undefined) options.overallRate = overallRate;
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Warms a scenario up (not recorded), then records it: req/s, latency, status codes, and the CPU
 * (µs per call) and RSS (MiB, at the end) of process `pid`. `recording` (a profiler's) is started
 * and stopped around exactly the recorded calls, settled work included.
 * @param {{ base: string, pid: number, request: object, expect: number, seconds: number, warmupSeconds: number, connections: number, recording?: { start: () => Promise<unknown>, stop: () => Promise<unknown> } }} run
 */
/** An autocannon result's answers by status, e.g. `{ "200": 16000, "429": 12 }`. */
export function statusCounts(result) {
  const counts = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) {
    counts[status] = count;
  }
  return counts;
}

export async function measure({
  base,
  pid,
  request,
  expect,
  seconds,
  warmupSeconds,
  connections,
  recording,
}) {
  await drive(base, request, { seconds: warmupSeconds, connections });
  const before = await settledCpuMs(pid);
  await recording?.start();
  const r = await drive(base, request, { seconds, connections });
  const spent = (await settledCpuMs(pid)) - before;
  await recording?.stop();
  const statusCodes = statusCounts(r);
  return {
    reqPerSec: r.requests.total / seconds,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    totalRequests: r.requests.total,
    cpuMicrosPerCall: (spent * 1000) / Math.max(1, r.requests.total),
    rssMiB: rssMiB(pid),
    non2xx: r.non2xx,
    status5xx: r["5xx"],
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    unexpectedStatus: r.requests.total - (statusCodes[expect] ?? 0),
  };
}

/** Prints rows as an aligned text table: `columns` are [heading, row => text]. */
export function printTable(columns, rows) {
  const lines = rows.map((row) => columns.map(([, cell]) => String(cell(row))));
  const head = columns.map(([heading]) => heading);
  const width = head.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  for (const line of [head, ...lines])
    console.log(line.map((value, i) => value.padEnd(width[i])).join("  "));
}
