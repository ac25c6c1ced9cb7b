/**
 * A meter of what Cloudflare bills, for vitest workerd tests (docs/performance.md#how-the-counts-are-made):
 * per operation, Worker invocations, object requests (objects' calls to other objects included),
 * D1 rows read and written (D1's own `meta`), object storage rows read and written (SQL cursors,
 * and the key-value methods costed per key), and queue messages sent. patches.ts installs the
 * counting once per isolate; `measure` runs an operation and returns what it cost.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { patchD1, patchHandlers, patchStorage, patchStubs, restoreAll, stubs } from "./patches";
import { close, newRecording, type Recording, settle, state, type Tally } from "./recorder";

export { OBJECT_CLASSES, type ObjectClass, settle, type Tally } from "./recorder";

let installed: Promise<void> | undefined;

/** Installs the meter (idempotent). */
export function installMeter(): Promise<void> {
  installed ??= (async () => {
    patchD1();
    patchHandlers();
    // Storage prototypes are reachable only inside an object: any one shows them.
    const probe = env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName("meter-probe"));
    await runInDurableObject(probe, (_instance, objectState) => patchStorage(objectState.storage));
    patchStubs();
  })();
  return installed;
}

/** Takes the meter out (call it in `afterAll`): later files of the isolate see the runtime as it is. */
export async function uninstallMeter(): Promise<void> {
  if (!installed) return;
  await installed;
  await settle();
  restoreAll();
  installed = undefined;
}

/** The runtime's own stub behind a stub the meter counts (for cloudflare:test helpers). */
export function runtimeStub<T extends object>(stub: T): T {
  return (stubs.get(stub) as T | undefined) ?? stub;
}

/**
 * Runs `operation`, lets its background work (waitUntil, group commits) settle, and returns what
 * it cost. With `untilQueue`, awaited after the operation, each queue consumer invocation opens a
 * tally of its own: [the operation until the first invocation, the first invocation on, …].
 */
export async function measure(
  operation: () => Promise<unknown>,
  options: { untilQueue?: () => Promise<unknown> } = {},
): Promise<Tally[]> {
  await installMeter();
  await settle();
  const recordings: Recording[] = [newRecording()];
  state.current = recordings[0];
  state.splitAtQueue = options.untilQueue ? recordings : undefined;
  try {
    await operation();
    await options.untilQueue?.();
    await settle();
  } finally {
    state.current = undefined;
    state.splitAtQueue = undefined;
  }
  return recordings.map(close);
}

/** `measure` for an operation that must not reach the queue consumer. */
export async function measureOne(operation: () => Promise<unknown>): Promise<Tally> {
  const [tally, ...more] = await measure(operation);
  if (!tally || more.length > 0) throw new Error("meter: the queue consumer ran meanwhile");
  return tally;
}

/** Object requests as billed: each call and alarm, and a twentieth of a WebSocket message. */
export function billedObjectRequests(tally: Tally): number {
  const calls = Object.values(tally.objectCalls).reduce((sum, n) => sum + n, 0);
  return calls + tally.socketMessages / 20;
}

/**
 * Table rows written: D1's `meta.changes` (index entries aside) and the object storage's rows
 * (key-value rows are table rows; SQL rows as SQLite counts them, index entries included).
 */
export function tableRowsWritten(tally: Tally): number {
  return tally.d1Changes + tally.objectRowsWritten;
}
