/**
 * A run on the canvas, its pure parts (docs/dashboard.md#workflow-editor): each node's run as its
 * badge shows it (status, duration, a one-line output preview, the error), how the picker names an
 * execution, and the "Debug in editor" sample put in place of the node's newest captured one.
 */
import type { Schemas } from "../../../api";
import { duration } from "../../../ui/format";

type Execution = Schemas["Execution"];
type NodeRun = Schemas["NodeRun"];

/** What a node shows of its run in the chosen execution. */
export type NodeRunSummary = {
  status: NodeRun["status"];
  /** "840 ms", or null while it has not finished. */
  took: string | null;
  /** The output on one line, cut at PREVIEW_CHARS; null when it has none. */
  preview: string | null;
  error: string | null;
  /** How many times the node ran in the execution (a node in a loop-free graph: once). */
  runs: number;
};

/** The longest output preview on a node, in characters. */
export const PREVIEW_CHARS = 80;

/** `value` as compact JSON on one line, cut with "…" past `max` characters. */
export function preview(value: unknown, max = PREVIEW_CHARS): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value) ?? "null";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Each node's run in `execution`, by node key. A node that ran more than once shows its last run
 * (the one that decided how the execution went), with how many runs there were.
 */
export function runsByKey(execution: Execution | undefined): Map<string, NodeRunSummary> {
  const byKey = new Map<string, NodeRunSummary>();
  for (const run of execution?.nodes ?? []) {
    byKey.set(run.key, {
      status: run.status,
      took: duration(run.startedAt, run.finishedAt),
      preview: preview(run.output),
      error: run.error ?? null,
      runs: (byKey.get(run.key)?.runs ?? 0) + 1,
    });
  }
  return byKey;
}

/** How the picker names an execution: status, start time (local), and whether it was a test. */
export function executionLabel(execution: Execution, locale?: string): string {
  const at = new Date(execution.startedAt).toLocaleString(locale, {
    dateStyle: "short",
    timeStyle: "medium",
  });
  const test = execution.mode === "test" ? " · test" : "";
  return `${execution.status} · ${at}${test}`;
}

/** The trigger data of an execution, as the sample "Debug in editor" loads: its trigger's output. */
export function debugSampleOf(
  execution: Execution | undefined,
): { key: string; output: unknown } | null {
  if (!execution) return null;
  const run = execution.nodes.find((node) => node.key === execution.trigger.key);
  return run && run.output !== undefined ? { key: run.key, output: run.output } : null;
}

/** The editor's samples by node key with the debug sample, if any, in place of its node's newest. */
export function withDebugSample(
  newest: Record<string, unknown>,
  debug: { key: string; output: unknown } | null,
): Record<string, unknown> {
  return debug ? { ...newest, [debug.key]: debug.output } : newest;
}

/** The `debug` execution id of the editor's address (`?debug=exe_…`), or null. */
export function debugParam(search: string): string | null {
  const id = new URLSearchParams(search).get("debug");
  return id && /^exe_[0-9A-Za-z_-]{1,64}$/.test(id) ? id : null;
}
