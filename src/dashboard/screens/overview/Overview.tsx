/**
 * Overview (docs/dashboard.md#overview), the dashboard's first screen: the workspace's health over
 * the last 24 hours by hour or the last 30 days by day, from `GET /v1/manage/metrics`: totals, then
 * a chart of each series. The charts (uPlot, canvas) load only on this screen, each with a table of
 * its numbers for screen readers.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { Loading, QueryStatus } from "../../ui/feedback";
import { Screen } from "../../ui/Screen";
import "./overview.css";

const Charts = lazy(() => import("./Charts"));

const RANGES = {
  day: { step: "hour", label: "Last 24 hours", by: "by hour" },
  month: { step: "day", label: "Last 30 days", by: "by day" },
} as const;
type Range = keyof typeof RANGES;

type Totals = Schemas["Metrics"]["totals"];

/** The Overview screen. */
export function Overview() {
  const [range, setRange] = useState<Range>("day");
  const { step } = RANGES[range];
  const metrics = useQuery({
    queryKey: ["metrics", step],
    queryFn: () => unwrap(api.GET("/v1/manage/metrics", { params: { query: { step } } })),
    refetchInterval: 60_000,
  });
  const name = useId();
  const data = metrics.data;
  return (
    <Screen title="Overview" className="overview">
      <fieldset className="range">
        <legend>Range</legend>
        {(Object.keys(RANGES) as Range[]).map((key) => (
          <label key={key}>
            <input
              type="radio"
              name={name}
              value={key}
              checked={range === key}
              onChange={() => setRange(key)}
            />{" "}
            {RANGES[key].label} <span className="muted">({RANGES[key].by})</span>
          </label>
        ))}
      </fieldset>
      <QueryStatus query={metrics} what="the metrics" />
      {data ? (
        <>
          <TotalsList totals={data.totals} range={RANGES[range].label} />
          <Suspense fallback={<Loading what="the charts" />}>
            <Charts points={data.points} step={data.step} />
          </Suspense>
          <p className="muted note">
            Times are your browser's. Ratings are not counted yet. Webhook answer times are told
            within 9 %.
          </p>
        </>
      ) : null}
    </Screen>
  );
}

/** The range's totals, as figures. */
function TotalsList({ totals, range }: { totals: Totals; range: string }) {
  const executions = totals.executions.succeeded + totals.executions.failed;
  const attempts = totals.deliveries.succeeded + totals.deliveries.failed;
  const figures: [string, string, string?][] = [
    ["Links created", String(totals.links.created)],
    ["Links opened", String(totals.links.opened)],
    ["Conversations ended", String(totals.conversations.ended)],
    [
      "Executions",
      String(executions),
      totals.executions.failed > 0 ? `${totals.executions.failed} failed` : undefined,
    ],
    [
      "Webhook calls",
      String(totals.webhooks.calls),
      totals.webhooks.p99Ms === null ? undefined : `p99 ${totals.webhooks.p99Ms} ms`,
    ],
    [
      "Event delivery attempts",
      String(attempts),
      totals.deliveries.failed > 0 ? `${totals.deliveries.failed} failed` : undefined,
    ],
  ];
  return (
    <dl className="totals" aria-label={`Totals, ${range.toLowerCase()}`}>
      {figures.map(([label, value, note]) => (
        <div key={label} className="total">
          <dt>{label}</dt>
          <dd>
            <span className="figure">{value}</span>
            {note ? (
              <span className={note.includes("failed") ? "bad" : "muted"}>{note}</span>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
