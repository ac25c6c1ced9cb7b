// Past one object (docs/scaling.md): how many calls a second one object answers before its p99
// passes 100 ms (a workflow's one runner; a workspace's link ledger). Closed-loop steps of 4, 8,
// … 128 connections: the object's figure is the most calls a second of a step whose p99 stayed
// within 100 ms. (A fixed offered rate would be fairer to latency, but autocannon sends each
// second's calls in a burst, which measures the burst.)
import { drive, statusCounts } from "./load.mjs";

const CONNECTIONS = [4, 8, 16, 32, 64, 128];
const STEP_SECONDS = 5;
const P99_LIMIT_MS = 100;

/** The object's capacity and each step's figures. Bounded: CONNECTIONS.length × STEP_SECONDS. */
export async function capacity(base, request) {
  const steps = [];
  await drive(base, request, { seconds: 2, connections: CONNECTIONS[0] });
  for (const connections of CONNECTIONS) {
    const r = await drive(base, request, { seconds: STEP_SECONDS, connections });
    const step = {
      connections,
      callsPerSecond: r.requests.total / STEP_SECONDS,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx,
      statuses: statusCounts(r),
    };
    steps.push(step);
    if (step.p99Ms > P99_LIMIT_MS || step.non2xx > 0) break;
  }
  const kept = steps.filter((s) => s.p99Ms <= P99_LIMIT_MS && s.non2xx === 0);
  const last = steps.at(-1);
  // Why the steps ended, so a limit of the harness (a 429) is not read as the object's.
  const stoppedBy =
    last.non2xx > 0
      ? `non-2xx at ${last.connections} conn.: ${JSON.stringify(last.statuses)}`
      : last.p99Ms > P99_LIMIT_MS
        ? `p99 over ${P99_LIMIT_MS} ms at ${last.connections} conn.`
        : `all steps within ${P99_LIMIT_MS} ms`;
  return { callsPerSecond: Math.max(0, ...kept.map((s) => s.callsPerSecond)), stoppedBy, steps };
}
