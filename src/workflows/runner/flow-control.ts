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

/**
 * Each throttle bucket's recent start times (epoch ms, oldest first), at most `limit` of them and
 * none older than the period: a sliding window, exact across restarts.
 */
export class ThrottleLog {
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Reads the logs once, while the object starts. */
  async load(): Promise<void> {
    for (const [key, times] of await this.storage.list<number[]>({ prefix: "t/" })) {
      this.starts.set(key.slice(2), times);
    }
  }

  private within(throttle: ThrottleFlow, now: number): number[] {
    const since = now - throttle.periodMs;
    return (this.starts.get(throttle.bucket) ?? []).filter((at) => at > since);
  }

  /** Whether one more execution may start in the bucket now. */
  allows(throttle: ThrottleFlow, now: number): boolean {
    return this.within(throttle, now).length < throttle.limit;
  }

  /** Counts a start; written in the background (the output gate holds answers until durable). */
  add(throttle: ThrottleFlow, now: number): void {
    const times = [...this.within(throttle, now), now].slice(-throttle.limit);
    this.starts.set(throttle.bucket, times);
    this.storage.put(startsKey(throttle.bucket), times).catch((error: unknown) => {
      log("error", "throttle_log_write_failed", { error });
    });
  }

  /** When the bucket has room again (epoch ms), or null when it has room now. */
  freesAt(throttle: ThrottleFlow, now: number): number | null {
    const times = this.within(throttle, now);
    if (times.length < throttle.limit) return null;
    return (times[times.length - throttle.limit] as number) + throttle.periodMs;
  }
}
