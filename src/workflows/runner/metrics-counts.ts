/**
 * What a runner counts per hour (docs/operations.md#metrics): executions by ending, calls by outcome
 * with latency histograms; counts add up across hours, shards and workflows.
 */
import { addLatency, type Histogram, mergeHistogram } from "../../platform/latency-histogram";
import type { RequestOutcome } from "./request-log-entry";

/** How an execution ended, as the metrics count it. */
export type ExecutionResult = "succeeded" | "failed";

/** Calls of one outcome and their answer times (ms). */
export type CallCounts = { calls: number; latency: Histogram };

/** The counts of a span of time; absent keys count 0. */
export type MetricCounts = {
  executions: Partial<Record<ExecutionResult, number>>;
  calls: Partial<Record<RequestOutcome, CallCounts>>;
};

/** The counts of one bucket of a metrics query: `at` is its start (epoch ms). */
export type MetricBucket = { at: number; counts: MetricCounts };

/** Nothing counted. */
export const emptyCounts = (): MetricCounts => ({ executions: {}, calls: {} });

/** Counts one finished execution. */
export function countExecution(counts: MetricCounts, result: ExecutionResult): void {
  counts.executions[result] = (counts.executions[result] ?? 0) + 1;
}

/** Counts one answered webhook call and its answer time (ms). */
export function countCall(counts: MetricCounts, outcome: RequestOutcome, latencyMs: number): void {
  const entry = counts.calls[outcome] ?? { calls: 0, latency: {} };
  entry.calls += 1;
  addLatency(entry.latency, latencyMs);
  counts.calls[outcome] = entry;
}

/** Adds `from` into `into` (which it changes and returns). */
export function addCounts(into: MetricCounts, from: MetricCounts): MetricCounts {
  for (const [result, n] of Object.entries(from.executions) as [ExecutionResult, number][]) {
    into.executions[result] = (into.executions[result] ?? 0) + n;
  }
  for (const [outcome, entry] of Object.entries(from.calls) as [RequestOutcome, CallCounts][]) {
    const mine = into.calls[outcome] ?? { calls: 0, latency: {} };
    mine.calls += entry.calls;
    mergeHistogram(mine.latency, entry.latency);
    into.calls[outcome] = mine;
  }
  return into;
}
