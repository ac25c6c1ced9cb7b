/**
 * The Overview's charts from the metrics (docs/dashboard.md#overview): which series each chart
 * draws, in which colour, and the numbers its table and summary tell. Pure, so the charts' code
 * (uPlot, loaded only on this screen) only draws.
 */
import type { Schemas } from "../../api";

type Metrics = Schemas["Metrics"];
type Point = Metrics["points"][number];

/** One line of a chart; `color` names a CSS custom property of overview.css. */
export type Line = { label: string; color: string; values: (number | null)[] };

/** A chart: its title, what its values count, and its lines over the points' times. */
export type Chart = { id: string; title: string; unit: string; lines: Line[] };

const PALETTE = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5", "--chart-6"];

/** The request log's outcomes as people read them. */
const OUTCOMES: Record<string, string> = {
  accepted: "Accepted",
  deduplicated: "Deduplicated",
  queued: "Queued",
  debounced: "Debounced",
  batched: "Batched",
  invalid_signature: "Bad signature",
  rate_limited: "Rate limited",
  method_not_allowed: "Wrong method",
  payload_too_large: "Too large",
  invalid_body: "Bad body",
  stopped: "Stopped",
  queue_full: "Queue full",
  handshake: "Handshake",
  handshake_refused: "Handshake refused",
};

/** The Overview's charts over the points (oldest first). */
export function chartsOf(points: Point[]): Chart[] {
  /** A line of `label` in palette colour `index`, its values picked from each point. */
  const line = (label: string, index: number, pick: (point: Point) => number | null): Line => ({
    label,
    color: PALETTE[index % PALETTE.length] as string,
    values: points.map(pick),
  });
  const outcomes = [
    ...new Set(points.flatMap((point) => Object.keys(point.webhooks.outcomes))),
  ].sort((a, b) => (a === "accepted" ? -1 : b === "accepted" ? 1 : a.localeCompare(b)));
  /** A chart of counts. */
  const counts = (id: string, title: string, lines: Line[]): Chart => ({
    id,
    title,
    unit: "count",
    lines,
  });
  /** The succeeded and failed lines of `of`'s outcomes (executions, delivery attempts). */
  const outcomeLines = (of: (point: Point) => { succeeded: number; failed: number }) => [
    line("Succeeded", 1, (p) => of(p).succeeded),
    line("Failed", 3, (p) => of(p).failed),
  ];
  const webhookLines =
    outcomes.length > 0
      ? outcomes.map((outcome, index) =>
          line(
            OUTCOMES[outcome] ?? outcome,
            index === 0 ? 0 : index + 1,
            (p) => p.webhooks.outcomes[outcome as keyof Point["webhooks"]["outcomes"]]?.calls ?? 0,
          ),
        )
      : [line("Calls", 0, (p) => p.webhooks.calls)];
  return [
    counts("links", "Links and conversations", [
      line("Links created", 0, (p) => p.links.created),
      line("Links opened", 1, (p) => p.links.opened),
      line("Conversations ended", 2, (p) => p.conversations.ended),
    ]),
    counts(
      "executions",
      "Executions",
      outcomeLines((p) => p.executions),
    ),
    counts("webhooks", "Webhook calls by outcome", webhookLines),
    {
      id: "latency",
      title: "Webhook answer time",
      unit: "ms",
      lines: [line("p50", 0, (p) => p.webhooks.p50Ms), line("p99", 4, (p) => p.webhooks.p99Ms)],
    },
    counts(
      "deliveries",
      "Event delivery attempts",
      outcomeLines((p) => p.deliveries),
    ),
  ];
}

/** A chart's one-sentence summary: each line's total (counts) or highest value (times). */
export function summaryOf(chart: Chart): string {
  const parts = chart.lines.map((l) => {
    const known = l.values.filter((v): v is number => v !== null);
    if (chart.unit === "ms") {
      return known.length > 0
        ? `${l.label} up to ${Math.max(...known)} ms`
        : `${l.label}: no calls`;
    }
    return `${l.label}: ${known.reduce((sum, v) => sum + v, 0)}`;
  });
  return `${parts.join("; ")}.`;
}
