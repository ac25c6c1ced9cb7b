/**
 * The workspace's metrics (docs/operations.md#metrics): per hour or day, links created and opened,
 * conversations started and ended, executions by how they ended, webhook calls by outcome with
 * their p50 and p99 answer times, and event delivery attempts by result. What D1 already holds as
 * rows is counted there, by index (`METRIC_QUERIES`); executions and webhook calls come from the
 * hourly counters of every runner shard of the workspace's workflows (`RunnerMetrics`).
 */
import { eq } from "drizzle-orm";
import { database } from "../db/database";
import { STORED_LINK_STATUSES, workflows } from "../db/schema";
import type { AppBindings } from "../platform/env";
import { invalidRequest } from "../platform/errors";
import { isoTime } from "../platform/ids";
import { type Histogram, mergeHistogram, percentile } from "../platform/latency-histogram";
import type { RequestOutcome } from "../workflows";
import { addCounts, type CallCounts, emptyCounts, type MetricCounts } from "../workflows";
import { onEveryShard } from "../workflows/runner/client";

const HOUR = 3_600_000;
/** What one request may ask for (docs/operations.md#metrics). */
export const METRICS_LIMITS = { maxPoints: 744, maxRangeMs: 400 * 24 * HOUR } as const;
export const STEPS = { hour: HOUR, day: 24 * HOUR } as const;
export type Step = keyof typeof STEPS;

/** Webhook calls and their answer times (ms; null without calls). */
export type CallStats = { calls: number; p50Ms: number | null; p99Ms: number | null };

/** The counts of one bucket, or of the whole range. */
export type MetricValues = {
  links: { created: number; opened: number };
  conversations: { started: number; ended: number };
  executions: { succeeded: number; failed: number };
  webhooks: CallStats & { outcomes: Partial<Record<RequestOutcome, CallStats>> };
  deliveries: { succeeded: number; failed: number };
};

/** What `GET /v1/manage/metrics` answers. */
export type Metrics = {
  from: string;
  to: string;
  step: Step;
  points: (MetricValues & { at: string })[];
  totals: MetricValues;
};

/** A metrics window: whole steps, `[from, to)` (epoch ms). */
export type Window = { from: number; to: number; step: Step; stepMs: number };

/**
 * The window a query asks for: `from` rounded down and `to` up to whole steps; by default the
 * last 24 hours by hour, or the last 30 days by day, up to the current step's end.
 * @throws ApiError 400 invalid_request when `from` is not before `to`, or past the limits
 */
export function metricsWindow(
  query: { from?: string; to?: string; step?: Step },
  now = Date.now(),
): Window {
  const step = query.step ?? "hour";
  const stepMs = STEPS[step];
  const to = Math.ceil((query.to ? Date.parse(query.to) : now) / stepMs) * stepMs;
  const span = step === "hour" ? 24 * HOUR : 30 * 24 * HOUR;
  const from = Math.floor((query.from ? Date.parse(query.from) : to - span) / stepMs) * stepMs;
  const problem = (code: string, message: string) =>
    invalidRequest("The metrics window is not valid.", [{ field: "from", code, message }]);
  if (from >= to) throw problem("out_of_range", "`from` must be before `to`.");
  if (to - from > METRICS_LIMITS.maxRangeMs) {
    throw problem("out_of_range", "At most 400 days; hours are kept 400 days.");
  }
  if ((to - from) / stepMs > METRICS_LIMITS.maxPoints) {
    throw problem("out_of_range", `At most ${METRICS_LIMITS.maxPoints} points; use step=day.`);
  }
  return { from, to, step, stepMs };
}

/**
 * The D1 counts per bucket (`b`: the bucket's index from `from`; D1 binds numbers as reals, hence
 * the cast), each read by index in the window only: ?1 from, ?2 to, ?3 the step (ms), ?4 the
 * workspace.
 */
export const METRIC_QUERIES = {
  // Every stored state, so the status index serves (one range per state): no index is by time alone.
  created: `SELECT CAST((created_at - ?1) / ?3 AS INTEGER) AS b, count(*) AS n FROM links WHERE workspace_id = ?4 AND status IN (${STORED_LINK_STATUSES.map((s) => `'${s}'`).join(", ")}) AND created_at >= ?1 AND created_at < ?2 GROUP BY b`,
  opened:
    "SELECT CAST((started_at - ?1) / ?3 AS INTEGER) AS b, count(*) AS n FROM links WHERE workspace_id = ?4 AND started_at >= ?1 AND started_at < ?2 GROUP BY b",
  ended:
    "SELECT CAST((ended_at - ?1) / ?3 AS INTEGER) AS b, count(*) AS n FROM links WHERE workspace_id = ?4 AND ended_at >= ?1 AND ended_at < ?2 GROUP BY b",
  attempts:
    "SELECT CAST((at - ?1) / ?3 AS INTEGER) AS b, count(*) AS n, sum(response_status BETWEEN 200 AND 299) AS ok FROM delivery_attempts WHERE endpoint_id IN (SELECT id FROM event_endpoints WHERE workspace_id = ?4) AND at >= ?1 AND at < ?2 GROUP BY b",
  // The success a delivery keeps on its row (a succeeded row's next_attempt_at is null).
  succeeded:
    "SELECT CAST((succeeded_at - ?1) / ?3 AS INTEGER) AS b, count(*) AS n, count(*) AS ok FROM event_deliveries WHERE workspace_id = ?4 AND status = 'succeeded' AND next_attempt_at IS NULL AND succeeded_at >= ?1 AND succeeded_at < ?2 GROUP BY b",
} as const;

type Row = { b: number; n: number; ok?: number | null };

const zero = (): MetricValues => ({
  links: { created: 0, opened: 0 },
  conversations: { started: 0, ended: 0 },
  executions: { succeeded: 0, failed: 0 },
  webhooks: { calls: 0, p50Ms: null, p99Ms: null, outcomes: {} },
  deliveries: { succeeded: 0, failed: 0 },
});

/** The stats of calls counted with their histogram. */
function callStats(counts: CallCounts): CallStats {
  const { calls, latency } = counts;
  return { calls, p50Ms: percentile(latency, 0.5), p99Ms: percentile(latency, 0.99) };
}

/** Executions and webhook calls of the runners' counts, into `values`. */
function fromCounts(values: MetricValues, counts: MetricCounts): void {
  values.executions.succeeded = counts.executions.succeeded ?? 0;
  values.executions.failed = counts.executions.failed ?? 0;
  const all: Histogram = {};
  let calls = 0;
  for (const [outcome, entry] of Object.entries(counts.calls) as [RequestOutcome, CallCounts][]) {
    values.webhooks.outcomes[outcome] = callStats(entry);
    calls += entry.calls;
    mergeHistogram(all, entry.latency);
  }
  Object.assign(values.webhooks, callStats({ calls, latency: all }));
}

/** The runners' counts per bucket, over every shard of every workflow of the workspace. */
async function runnerCounts(env: AppBindings, workspaceId: string, window: Window) {
  const flows = await database(env)
    .select({ id: workflows.id, shards: workflows.runnerShardsEver })
    .from(workflows)
    .where(eq(workflows.workspaceId, workspaceId));
  const answers = await Promise.all(
    flows.map((flow) =>
      onEveryShard(env, flow.id, flow.shards, (runner) =>
        runner.metricBuckets(window.from, window.to, window.stepMs),
      ),
    ),
  );
  const byBucket = new Map<number, MetricCounts>();
  for (const bucket of answers.flat(2)) {
    byBucket.set(bucket.at, addCounts(byBucket.get(bucket.at) ?? emptyCounts(), bucket.counts));
  }
  return byBucket;
}

/**
 * The workspace's metrics over the window, a point per step (zeros included) and the totals.
 * @throws when D1 or a runner cannot be reached (a 500)
 */
export async function workspaceMetrics(
  env: AppBindings,
  workspaceId: string,
  window: Window,
): Promise<Metrics> {
  const { from, to, stepMs } = window;
  const statement = (sql: string) => env.DB.prepare(sql).bind(from, to, stepMs, workspaceId);
  const [d1, runners] = await Promise.all([
    env.DB.batch<Row>(Object.values(METRIC_QUERIES).map(statement)),
    runnerCounts(env, workspaceId, window),
  ]);
  const [created, opened, ended, attempts, succeeded] = d1.map((result) => result.results);
  const points = Array.from({ length: (to - from) / stepMs }, zero);
  const at = (row: Row) => points[row.b];
  for (const row of created ?? []) (at(row) ?? zero()).links.created = row.n;
  for (const row of opened ?? []) {
    const point = at(row) ?? zero();
    point.links.opened = row.n;
    // A conversation starts when its link is opened: one count, shown under both names.
    point.conversations.started = row.n;
  }
  for (const row of ended ?? []) (at(row) ?? zero()).conversations.ended = row.n;
  for (const row of [...(attempts ?? []), ...(succeeded ?? [])]) {
    const point = at(row) ?? zero();
    point.deliveries.succeeded += row.ok ?? 0;
    point.deliveries.failed += row.n - (row.ok ?? 0);
  }
  const total = emptyCounts();
  for (const [bucketAt, counts] of runners) {
    const point = points[(bucketAt - from) / stepMs];
    if (point) fromCounts(point, counts);
    addCounts(total, counts);
  }
  const totals = zero();
  for (const point of points) {
    totals.links.created += point.links.created;
    totals.links.opened += point.links.opened;
    totals.conversations.started += point.conversations.started;
    totals.conversations.ended += point.conversations.ended;
    totals.deliveries.succeeded += point.deliveries.succeeded;
    totals.deliveries.failed += point.deliveries.failed;
  }
  fromCounts(totals, total);
  return {
    from: isoTime(from),
    to: isoTime(to),
    step: window.step,
    points: points.map((point, index) => ({ at: isoTime(from + index * stepMs), ...point })),
    totals,
  };
}
