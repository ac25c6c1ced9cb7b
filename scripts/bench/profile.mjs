// `npm run bench -- --profile`: a V8 CPU profile of the Worker's isolate (the Worker and its Durable
// Objects run in one isolate under workerd) for each scenario, taken through workerd's inspector
// with the DevTools protocol, written as `.cpuprofile` files that Chrome DevTools or speedscope
// open, plus a summary of where the time went (self time by function) for the closing table.

const SAMPLING_INTERVAL_US = 100;
const CALL_TIMEOUT_MS = 30_000;

/**
 * A DevTools-protocol session on workerd's inspector for the worker `name`.
 * @param {number} inspectorPort
 * @param {string} name the worker's name (its inspector target is `/core:user:<name>`)
 */
export async function openProfiler(inspectorPort, name) {
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/core:user:${name}`);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("inspector unreachable")), {
      once: true,
    });
  });
  let nextId = 1;
  const waiting = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  });
  /** Sends one protocol command and waits (bounded) for its result. */
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      const settle = (done) => (value) => {
        clearTimeout(timer);
        done(value);
      };
      waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
  return {
    start: () => call("Profiler.start"),
    /** Stops sampling; resolves to the profile (the `.cpuprofile` JSON). */
    stop: async () => (await call("Profiler.stop")).profile,
    close: () => socket.close(),
  };
}

/**
 * The functions with the most self time in a profile, as `{ name, where, selfPct }` rows
 * (idle and the garbage collector named as V8 names them).
 * @param {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>, samples: number[] }} profile
 * @param {number} count how many rows
 */
export function hottest(profile, count = 12) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const frame = byNode.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") continue;
    busy++;
    const file = frame.url.split("/").at(-1) || "native";
    const key = `${frame.functionName || "(anonymous)"}\t${file}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, samples]) => {
      const [name, where] = key.split("\t");
      return { name, where, selfPct: (100 * samples) / Math.max(1, busy) };
    });
}
