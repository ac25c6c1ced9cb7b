// The hold test: HOLD_CALLERS concurrent lastNode callers, each held by the runner while its
// execution waits on a `wait` node (an alarm), and the memory (RSS of workerd) they take.
import { rssMiB } from "./load.mjs";
import { HOLD_WAIT_SECONDS } from "./workflows.mjs";

const HOLD_TIMEOUT_MS = 120_000;

/**
 * `callers` concurrent calls to `base + path`, one each, bounded by HOLD_TIMEOUT_MS; samples the
 * RSS of process `pid` every 250 ms. Resolves to the statuses, wrong answers and memory (MiB).
 */
export async function hold(base, path, pid, callers) {
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 250);
  const started = Date.now();
  const statuses = {};
  let wrong = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, n) => {
      try {
        const res = await fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ n }),
          signal: AbortSignal.timeout(HOLD_TIMEOUT_MS),
        });
        const text = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200 && text !== JSON.stringify({ ok: true, n })) wrong++;
      } catch (error) {
        statuses[error.name] = (statuses[error.name] ?? 0) + 1;
      }
    }),
  );
  clearInterval(sampler);
  return {
    callers,
    waitSeconds: HOLD_WAIT_SECONDS,
    statuses,
    wrongAnswers: wrong,
    seconds: (Date.now() - started) / 1000,
    rssBeforeMiB: before,
    rssPeakMiB: peak,
    heldMiBPerThousandCallers: (peak - before) * (1000 / callers),
    pass: statuses[200] === callers && wrong === 0,
  };
}
