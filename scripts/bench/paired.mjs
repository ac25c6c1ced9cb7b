// What `npm run bench:pair` and `npm run bench:ab` share: our Worker started and seeded, one
// recorded run's CPU per call, the calls that keep a server's objects warm while the other side of a
// round runs, and the median of the rounds (docs/performance.md#paired-rounds).
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../local-server.mjs";
import { measureChat, openConversations } from "./chat.mjs";
import { launchScenarios, seedLaunch } from "./launch.mjs";
import { drive, measure } from "./load.mjs";
import { webhookScenarios } from "./webhooks.mjs";
import { seedWorkflows } from "./workflows.mjs";

/** Links made before the look-up rounds: it walks the newest 10,000 (scripts/bench/launch.mjs). */
const LINKS = 12_000;

const int = (value, fallback) =>
  Number.isSafeInteger(Number(value)) && Number(value) > 0 ? Number(value) : fallback;

/**
 * A paired run's settings from the environment: BENCH_ROUNDS (`rounds` by default, at most 99),
 * BENCH_SECONDS per recorded run (3, at most 6: workerd evicts an object idle for about 10 s, and
 * the other side's runs leave ours idle that long) and BENCH_CONNECTIONS (20).
 */
export const pairedSettings = ({ rounds }) => ({
  rounds: Math.min(int(process.env.BENCH_ROUNDS, rounds), 99),
  seconds: Math.min(int(process.env.BENCH_SECONDS, 3), 6),
  connections: int(process.env.BENCH_CONNECTIONS, 20),
});

/** Writes `report` as bench-results/`file` (JSON), the folder made when missing. */
export function writeResult(file, report) {
  const results = path.join(ROOT, "bench-results");
  fs.mkdirSync(results, { recursive: true });
  fs.writeFileSync(path.join(results, file), `${JSON.stringify(report, null, 2)}\n`);
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Our Worker from the checkout `workerd` (a `scripts/bench/workerd.mjs` module, this checkout's or
 * another's), started on 127.0.0.1:`port` and seeded: the launch scenarios (the look-up's links
 * made when it is wanted) and the webhook scenarios; chat opens a round's conversations when the
 * round starts. Stops the server again when seeding fails.
 * @param {{ workerd: { buildWorker: Function, startWorkerd: Function }, script?: string,
 *   port: number, vars: Record<string, string>, wanted: string[], connections: number,
 *   conversations: number }} options `script`: the checkout's bundle, built already (else built here)
 * @returns {Promise<{ server: object, scenarios: object[] }>}
 */
export async function startOurs({
  workerd,
  script,
  port,
  vars,
  wanted,
  connections,
  conversations,
}) {
  const bundle = script ?? workerd.buildWorker({ minify: true }).script;
  const server = await workerd.startWorkerd({ script: bundle, port, vars });
  try {
    const seeded = await seedLaunch(server.base, vars.OPERATOR_TOKEN);
    const plan = launchScenarios(seeded);
    if (wanted.includes("lookup")) {
      await drive(server.base, plan.list[0].request, { seconds: 120, connections, amount: LINKS });
    }
    const paths = await seedWorkflows(server.base, seeded.memberToken);
    // A round's conversations are opened when it starts: one idle for 10 s would be evicted.
    const chat = {
      name: "chat",
      sockets: async () => ({
        warm: await openConversations(server.base, seeded, connections),
        urls: await openConversations(server.base, seeded, conversations),
      }),
    };
    return { server, scenarios: [...plan.list, ...webhookScenarios(paths), chat] };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * While another side of a round runs, one call a second of `scenario` to `server`: workerd evicts
 * an object idle for about 10 s. The server's CPU is read around its own run only, so these calls
 * are not in it.
 * @returns stops the calls
 */
export function keepWarm(server, scenario) {
  // A chat round opens its conversations just before its run (`startOurs`).
  if (!scenario.request) return () => {};
  const timer = setInterval(() => {
    const request = scenario.request.setupRequest?.({ ...scenario.request }) ?? scenario.request;
    const { method, headers, body } = request;
    fetch(`${server.base}${request.path ?? "/"}`, { method, headers, body })
      .then((response) => response.arrayBuffer())
      .catch(() => {});
  }, 1000);
  return () => clearInterval(timer);
}

/**
 * One recorded run of `scenario` on `server` (after 1 s of warm-up): CPU µs per call (per round
 * trip, for chat). Throws at a 5xx or a status other than the scenario's.
 * @param {{ seconds: number, connections: number }} options
 */
export async function cpuPerCall(server, scenario, { seconds, connections }) {
  const options = { seconds, warmupSeconds: 1, connections };
  const row = scenario.sockets
    ? await measureChat({ pid: server.pid, ...(await scenario.sockets()), ...options })
    : await measure({
        base: server.base,
        pid: server.pid,
        request: scenario.request,
        expect: scenario.expect,
        ...options,
      });
  // A wrong answer (a look-up's 404, a lastNode call's wrong body) must not be timed as a right one.
  scenario.after?.(row);
  if (row.status5xx > 0 || row.unexpectedStatus > 0) {
    throw new Error(
      `${scenario.name}: ${row.status5xx} answers 5xx (for chat: failed round trips), ${row.unexpectedStatus} unexpected`,
    );
  }
  return row.cpuMicrosPerCall;
}
