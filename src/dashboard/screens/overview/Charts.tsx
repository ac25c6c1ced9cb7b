/**
 * The Overview's charts (docs/dashboard.md#overview), loaded only on that screen (its own chunk,
 * with uPlot): a canvas chart per series group, drawn in the page's colours (light or dark, drawn
 * again when the system's scheme changes) and as wide as its box (a phone's too). Canvas says
 * nothing to a screen reader, so each chart has a one-sentence summary and a table of its numbers,
 * hidden from sight.
 */
import { useEffect, useId, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Schemas } from "../../api";
import { type Chart, chartsOf, summaryOf } from "./series";

type Point = Schemas["Metrics"]["points"][number];

const HEIGHT = 200;
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 1e5, 1e6,
];

/** Every chart of the points (oldest first); `step` says how their times read. */
export default function Charts({ points, step }: { points: Point[]; step: "hour" | "day" }) {
  const charts = useMemo(() => chartsOf(points), [points]);
  const times = useMemo(() => points.map((point) => Date.parse(point.at) / 1000), [points]);
  return (
    <div className="charts">
      {charts.map((chart) => (
        <ChartFigure key={chart.id} chart={chart} times={times} step={step} />
      ))}
    </div>
  );
}

function ChartFigure({ chart, times, step }: { chart: Chart; times: number[]; step: string }) {
  const caption = useId();
  const when = (seconds: number) =>
    new Date(seconds * 1000).toLocaleString(undefined, {
      month: "short",
      day: "numeric",
      ...(step === "hour" ? { hour: "2-digit", minute: "2-digit" } : {}),
    });
  const unit = chart.unit === "ms" ? " (ms)" : "";
  return (
    <figure className="chart" aria-labelledby={caption}>
      <figcaption id={caption}>
        {chart.title}
        <span className="summary">{summaryOf(chart)}</span>
      </figcaption>
      <Plot chart={chart} times={times} />
      <ul className="legend" aria-hidden="true">
        {chart.lines.map((line) => (
          <li key={line.label}>
            <span className="swatch" style={{ background: `var(${line.color})` }} />
            {line.label}
          </li>
        ))}
      </ul>
      {/* A table is never narrower than its content: the box around it is what is hidden. */}
      <div className="visually-hidden">
        <table>
          <caption>
            {chart.title}
            {unit}, {step === "hour" ? "by hour" : "by day"}
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {chart.lines.map((line) => (
                <th scope="col" key={line.label}>
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((time, index) => (
              <tr key={time}>
                <th scope="row">{when(time)}</th>
                {chart.lines.map((line) => (
                  <td key={line.label}>{line.values[index] ?? "—"}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The canvas, hidden from assistive technology (the table beside it tells the same). */
function Plot({ chart, times }: { chart: Chart; times: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      const css = getComputedStyle(element);
      const color = (name: string) => css.getPropertyValue(name).trim();
      const data: uPlot.AlignedData = [times, ...chart.lines.map((line) => line.values)];
      plot = new uPlot(options(chart, element.clientWidth, color, times.length), data, element);
    };
    draw();
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    const scheme = window.matchMedia("(prefers-color-scheme: dark)");
    scheme.addEventListener("change", draw);
    return () => {
      resize.disconnect();
      scheme.removeEventListener("change", draw);
      plot?.destroy();
    };
  }, [chart, times]);
  return <div className="plot" ref={box} aria-hidden="true" />;
}

/** uPlot's options for a chart `width` pixels wide, in the colours `color` resolves. */
function options(
  chart: Chart,
  width: number,
  color: (name: string) => string,
  points: number,
): uPlot.Options {
  const axis = {
    stroke: color("--muted"),
    grid: { stroke: color("--border"), width: 1 },
    ticks: { stroke: color("--border"), width: 1 },
  };
  return {
    width: Math.max(200, width),
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 0)] } },
    series: [
      {},
      ...chart.lines.map((line) => ({
        label: line.label,
        stroke: color(line.color),
        width: 2,
        points: { show: points <= 31 },
      })),
    ],
    axes: [
      axis,
      {
        ...axis,
        size: 56,
        // Counts are whole: no tick between 0 and 1.
        ...(chart.unit === "ms" ? {} : { incrs: COUNT_STEPS }),
        values: (_u: uPlot, ticks: number[]) =>
          ticks.map((tick) => (chart.unit === "ms" ? `${tick} ms` : String(tick))),
      },
    ],
  };
}
