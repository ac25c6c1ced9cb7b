/**
 * What admission knows of an execution (docs/webhooks.md#flow-control): the key it counts under
 * for per-key concurrency, and the throttle bucket whose starts it counts in; and the throttles'
 * logs of start times, kept in the runner's storage so a restart keeps every window.
 */
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { ConversationEventNode, WebhookNode, WorkflowConcurrency } from "../nodes/types";
import type { ExecutionMode } from "./contract";
import { flowKey } from "./flow-key";

/** A throttle an execution starts under: its bucket (node and key), limit and period (ms). */
export type ThrottleFlow = { bucket: string; limit: number; periodMs: number };

/** An execution's flow control; stored with its record. Absent parts do not limit it. */
export type Flow = { key?: string; throttle?: ThrottleFlow };

/**
 * The flow an execution from `trigger` with `output` is admitted under: the workflow's current
 * `concurrency.key` rendered over the trigger's output (docs/webhooks.md#per-key-concurrency),
 * and the webhook trigger's `throttle`, except for a builder's test run
 * (docs/webhooks.md#throttle).
 */
export function flowOf(
  concurrency: WorkflowConcurrency | undefined,
  trigger: WebhookNode | ConversationEventNode,
  output: JsonValue,
  mode: ExecutionMode = "production",
): Flow {
  const flow: Flow = {};
  if (concurrency?.key !== undefined) flow.key = flowKey(concurrency.key, trigger.key, output);
  const throttle = trigger.type === "webhook" ? trigger.throttle : undefined;
  if (throttle && mode !== "test") {
    const key = flowKey(throttle.key, trigger.key, output);
    const periodMs = throttle.periodSeconds * 1000;
    flow.throttle = { bucket: `${trigger.key}\u0000${key}`, limit: throttle.limit, periodMs };
  }
  return flow;
}

/** Whether an execution is under any flow control (only then is its flow stored). */
export const hasFlow = (flow: Flow) => flow.key !== undefined || flow.throttle !== undefined;

/** Storage key of a throttle bucket's start times. */
const startsKey = (bucket: string) => `t/${bucket}`;

/** A bucket's recent starts (epoch ms, oldest first) and when the newest leaves the window. */
type Starts = { times: number[]; until: number };

/** How many starts between sweeps of buckets whose window is empty (keys seen once go). */
const SWEEP_EVERY = 1_000;

/**
 * Each throttle bucket's recent start times, at most `limit` of them and none older than the
 * period: a sliding window, exact across restarts. A bucket whose window emptied is deleted (on
 * start and every SWEEP_EVERY starts), so keys seen once do not stay.
 */
export class ThrottleLog {
  private readonly starts = new Map<string, Starts>();
  private added = 0;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Reads the logs once, while the object starts, and deletes those whose window emptied. */
  async load(now = Date.now()): Promise<void> {
    for (const [key, starts] of await this.storage.list<Starts>({ prefix: "t/" })) {
      this.starts.set(key.slice(2), starts);
    }
    this.sweep(now);
  }

  private within(throttle: ThrottleFlow, now: number): number[] {
    const since = now - throttle.periodMs;
    return (this.starts.get(throttle.bucket)?.times ?? []).filter((at) => at > since);
  }

  /** Whether one more execution may start in the bucket now. */
  allows(throttle: ThrottleFlow, now: number): boolean {
    return this.within(throttle, now).length < throttle.limit;
  }

  /** Counts a start; written in the background (the output gate holds answers until durable). */
  add(throttle: ThrottleFlow, now: number): void {
    const times = [...this.within(throttle, now), now].slice(-throttle.limit);
    const starts = { times, until: now + throttle.periodMs };
    this.starts.set(throttle.bucket, starts);
    this.storage.put(startsKey(throttle.bucket), starts).catch(logWriteError);
    if (++this.added % SWEEP_EVERY === 0) this.sweep(now);
  }

  /** When the bucket has room again (epoch ms), or null when it has room now. */
  freesAt(throttle: ThrottleFlow, now: number): number | null {
    const times = this.within(throttle, now);
    if (times.length < throttle.limit) return null;
    return (times[times.length - throttle.limit] as number) + throttle.periodMs;
  }

  /** Forgets the buckets whose newest start has left its window. */
  private sweep(now: number): void {
    const gone = [...this.starts].filter(([, starts]) => starts.until <= now).map(([key]) => key);
    for (const bucket of gone) this.starts.delete(bucket);
    // At most 128 keys a call (the storage API's limit).
    for (let at = 0; at < gone.length; at += 128) {
      this.storage.delete(gone.slice(at, at + 128).map(startsKey)).catch(logWriteError);
    }
  }
}

function logWriteError(error: unknown): void {
  log("error", "throttle_log_write_failed", { error });
}
