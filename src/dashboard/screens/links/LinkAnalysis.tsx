/**
 * A link page's Analysis section (docs/dashboard.md#screens, docs/api/launch.md#analysis): the
 * ended conversation's summary and fields as a table, with the values the brain got wrong.
 */
import type { Schemas } from "../../api";
import { analysisValue } from "./analysis-format";

type Analysis = NonNullable<NonNullable<Schemas["LinkDetail"]["conversation"]>["analysis"]>;

/** The section; `waiting` while the analysis may still come, nothing when there is none to show. */
export function LinkAnalysis(props: { analysis: Analysis | undefined; waiting: boolean }) {
  const { analysis } = props;
  if (!analysis && !props.waiting) return null;
  const fields = Object.entries(analysis?.data ?? {});
  return (
    <section aria-labelledby="analysis-title">
      <h2 id="analysis-title">Analysis</h2>
      {!analysis ? (
        <p className="muted">Being analysed…</p>
      ) : analysis.status === "failed" ? (
        <p className="muted">The analysis failed on every try.</p>
      ) : (
        <>
          {analysis.summary ? <p className="analysis-summary">{analysis.summary}</p> : null}
          {fields.length > 0 ? (
            <table className="analysis-fields">
              <caption className="visually-hidden">Fields of the analysis</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {fields.map(([name, value]) => (
                  <tr key={name}>
                    <th scope="row">
                      <code>{name}</code>
                    </th>
                    <td className={value === null ? "muted" : undefined}>{analysisValue(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {analysis.problems.length > 0 ? (
            <>
              <h3>Values left out</h3>
              <ul>
                {analysis.problems.map((problem) => (
                  <li key={problem.field}>
                    <code>{problem.field}</code>: {problem.message}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
