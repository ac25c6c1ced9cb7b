/**
 * The meter's patches of the runtime (docs/performance.md#how-the-counts-are-made). The Worker, its
 * Durable Objects and the test share one isolate under @cloudflare/vitest-plugin, so a patch of a
 * prototype here sees every call any of them makes; meter.test.ts proves each one counts.
 */
import { env } from "cloudflare:workers";
import worker, { Conversation, LinkLedger, WorkflowRunner } from "../../src/index";
import { kvCost } from "./kv-rows";
import {
  newRecording,
  OBJECT_CLASSES,
  type ObjectClass,
  record,
  recordCursor,
  short,
  state,
  track,
} from "./recorder";

type Method = (this: unknown, ...args: unknown[]) => unknown;
type Methods = Record<string, Method>;

/** Undoes each replacement, newest first. */
const restores: (() => void)[] = [];

/**
 * Puts `make(original)` in place of `target[name]`, to be undone by `restoreAll`.
 * @returns the original
 */
function replace(target: object, name: string, make: (original: Method) => Method): Method {
  const methods = target as Methods;
  const original = methods[name];
  if (typeof original !== "function") throw new Error(`meter: no ${name} to replace`);
  methods[name] = make(original);
  restores.push(() => {
    methods[name] = original;
  });
  return original;
}

/** Replaces `target[name]` by a call of `before`, then the original (tracked while in flight). */
function wrap(target: object, name: string, before: (args: unknown[]) => void): void {
  replace(
    target,
    name,
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        before(args);
        return track(original.apply(this, args));
      },
  );
}

/**
 * Takes every patch out: the runtime's own stubs are what cloudflare:test's helpers accept, and
 * files that run after in the same isolate must see the runtime unchanged.
 */
export function restoreAll(): void {
  for (const restore of restores.splice(0).reverse()) restore();
}

type D1Answer = { meta?: { rows_read?: number; rows_written?: number; changes?: number } };

/**
 * D1: every statement (run, all, first, raw, batch, exec) goes through the session's `_send`,
 * which resolves with D1's own result per statement, `meta` included even where the public
 * method drops it.
 */
export function patchD1(): void {
  let proto: object | null = (env.DB.prepare("SELECT 1") as unknown as { dbSession: object })
    .dbSession;
  while (proto && !Object.hasOwn(proto, "_send")) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error("meter: the D1 session has no _send");
  replace(
    proto,
    "_send",
    (send) =>
      function (this: unknown, ...args: unknown[]) {
        record((t) => t.d1Queries++);
        const statements = [args[1]].flat();
        const answer = Promise.resolve(send.apply(this, args)) as Promise<D1Answer | D1Answer[]>;
        return track(
          answer.then((results) => {
            for (const [index, result] of [results].flat().entries()) {
              const read = result.meta?.rows_read ?? 0;
              const written = result.meta?.rows_written ?? 0;
              record((t) => {
                t.d1RowsRead += read;
                t.d1RowsWritten += written;
                t.d1Changes += result.meta?.changes ?? 0;
                t.trace.push(`D1 ${read}/${written} ${short(statements[index])}`);
              });
            }
            return results;
          }),
        );
      },
  );
}

const BINDINGS = {
  LINK_LEDGER: "LinkLedger",
  WORKFLOW_RUNNER: "WorkflowRunner",
  CONVERSATION: "Conversation",
} as const satisfies Record<string, ObjectClass>;

/** A namespace's class, told by the id it derives from a fixed name (ids differ per class). */
const classOf = new WeakMap<object, ObjectClass>();
function objectClass(namespace: Pick<DurableObjectNamespace, "idFromName">): ObjectClass {
  const known = classOf.get(namespace);
  if (known) return known;
  const id = namespace.idFromName("meter").toString();
  for (const [binding, name] of Object.entries(BINDINGS)) {
    const other: Pick<DurableObjectNamespace, "idFromName"> = env[binding as keyof typeof BINDINGS];
    if (other.idFromName("meter").toString() !== id) continue;
    classOf.set(namespace, name);
    return name;
  }
  throw new Error("meter: a stub of an unknown class");
}

/** The stub behind a counting stub, for the test helpers that need the runtime's own. */
export const stubs = new WeakMap<object, object>();

/** A stub whose every call (an RPC method or fetch) counts as one request to its object. */
function countingStub(stub: object, name: ObjectClass): object {
  const counting = new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function" || typeof property !== "string" || property === "then") {
        return value;
      }
      return (...args: unknown[]) => {
        record((t) => t.objectCalls[name]++);
        // An RPC method is a callable proxy: `.apply` would be taken for a method of the object.
        return track(Reflect.apply(value as Method, target, args));
      };
    },
  });
  stubs.set(counting, stub);
  return counting;
}

/** Object requests: the stubs `get` and `getByName` hand out, to anyone (objects included). */
export function patchStubs(): void {
  const namespace = Object.getPrototypeOf(env.LINK_LEDGER) as Methods;
  for (const method of ["get", "getByName"] as const) {
    if (typeof namespace[method] !== "function") continue;
    replace(
      namespace,
      method,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const stub = original.apply(this, args) as object;
          return countingStub(stub, objectClass(this as DurableObjectNamespace));
        },
    );
  }
}

/** Alarms and WebSocket messages (handlers the runtime calls), Worker invocations, queue sends. */
export function patchHandlers(): void {
  const classes = { LinkLedger, WorkflowRunner, Conversation } as const;
  for (const name of OBJECT_CLASSES) {
    wrap(classes[name].prototype, "alarm", () => record((t) => t.objectCalls[name]++));
  }
  wrap(Conversation.prototype, "webSocketMessage", () => record((t) => t.socketMessages++));
  wrap(worker, "fetch", () => record((t) => t.workerInvocations++));
  wrap(worker, "queue", ([batch]) => {
    if (state.splitAtQueue) {
      state.current = newRecording();
      state.splitAtQueue.push(state.current);
    }
    record((t) => {
      t.workerInvocations++;
      t.queueInvocations++;
      t.queueMessagesConsumed += (batch as MessageBatch).messages.length;
    });
  });
  const queue = Object.getPrototypeOf(env.EVENT_DELIVERIES) as object;
  wrap(queue, "send", () => record((t) => t.queueMessages++));
  wrap(queue, "sendBatch", ([messages]) =>
    record((t) => {
      t.queueMessages += (messages as unknown[]).length;
    }),
  );
}

const KV_METHODS = ["get", "put", "delete", "list", "setAlarm", "deleteAlarm"] as const;

/** Object storage: SQL cursors, and the key-value and alarm methods costed by kv-rows.ts. */
export function patchStorage(storage: DurableObjectStorage): void {
  replace(
    Object.getPrototypeOf(storage.sql),
    "exec",
    (exec) =>
      function (this: unknown, ...args: unknown[]) {
        const cursor = exec.apply(this, args) as { rowsRead: number; rowsWritten: number };
        recordCursor(String(args[0]), cursor);
        return cursor;
      },
  );
  const methods = Object.getPrototypeOf(storage) as Methods;
  // The unmetered list: kv-rows.ts looks past a list's end with it.
  const list = methods.list as Method;
  for (const method of KV_METHODS) {
    replace(
      methods,
      method,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const result = original.apply(this, args);
          // Outside a recording, nothing to cost: only the work in flight matters (for `settle`).
          if (!state.current) return track(result);
          const counted = Promise.resolve(result).then(async (value) => {
            const cost = await kvCost(
              method,
              args,
              value,
              (options) => list.call(this, options) as Promise<Map<string, unknown>>,
            );
            record((t) => {
              t.objectRowsRead += cost.rowsRead;
              t.objectRowsWritten += cost.rowsWritten;
              const key = typeof args[0] === "string" ? args[0] : JSON.stringify(args[0]);
              t.trace.push(`KV ${cost.rowsRead}/${cost.rowsWritten} ${method} ${short(key)}`);
            });
            return value;
          });
          return track(counted);
        },
    );
  }
}
