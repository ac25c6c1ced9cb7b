/**
 * One node's run in an execution (docs/api/webhooks.md#executions): key, type, status, start,
 * duration, its input and output as indented JSON, its error, and an http_request's failed
 * attempts. Secret values arrive from the API already `[redacted]`.
 */
import { useId } from "react";
import type { Schemas } from "../../api";
import { DataTable } from "../../ui/DataTable";
import { Badge, Json } from "../../ui/data";
import { When } from "../../ui/feedback";
import { duration } from "../../ui/format";
import { runTone } from "./status";

type NodeRun = Schemas["NodeRun"];

/**
 * What each run could read: the trigger reads the call itself (its output), every later node the
 * outputs of the nodes that ran before it, by key, as its templates address them
 * (`{{webhook_1.body.x}}`). The record keeps outputs only, so inputs are derived from them.
 */
export function inputsOf(runs: NodeRun[], triggerKey: string): (Record<string, unknown> | null)[] {
  return runs.map((current, index) =>
    current.key === triggerKey
      ? null
      : Object.fromEntries(
          runs
            .slice(0, index)
            .filter((run) => run.output !== undefined)
            .map((run) => [run.key, run.output]),
        ),
  );
}

/** When a run (an execution, a node's) started and how long it took, as facts of a `<dl>`. */
export function Timing(props: { startedAt: string | null | undefined; took: string }) {
  return (
    <>
      <dt>Started</dt>
      <dd>
        <When iso={props.startedAt} />
      </dd>
      <dt>Duration</dt>
      <dd>{props.took}</dd>
    </>
  );
}

/** A node run as an article: `input` null for the trigger. */
export function NodeRunView({
  run,
  input,
}: {
  run: NodeRun;
  input: Record<string, unknown> | null;
}) {
  const headingId = useId();
  return (
    <article className="node-run" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {run.key} <span className="muted">({run.type})</span>
      </h3>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Badge tone={runTone(run.status)}>{run.status}</Badge>
          {run.answered ? " · its output answered the call" : null}
        </dd>
        <Timing
          startedAt={run.startedAt}
          took={duration(run.startedAt, run.finishedAt) ?? "Not finished"}
        />
      </dl>
      <h4>Input</h4>
      {input === null ? (
        <p className="muted">The call that started the execution: see its output.</p>
      ) : (
        <Json value={input} />
      )}
      <h4>Output</h4>
      {run.output === undefined ? <p className="muted">No output.</p> : <Json value={run.output} />}
      {run.error ? (
        <>
          <h4>Error</h4>
          <p className="error">{run.error}</p>
        </>
      ) : null}
      {run.attempts && run.attempts.length > 0 ? <Attempts attempts={run.attempts} /> : null}
    </article>
  );
}

/** An http_request's attempts that failed: when, the answer's status and the error. */
function Attempts({ attempts }: { attempts: NonNullable<NodeRun["attempts"]> }) {
  return (
    <>
      <h4>Attempts that failed</h4>
      <DataTable
        rows={attempts}
        rowKey={(attempt) => attempt.at}
        columns={[
          { label: "At", when: (attempt) => attempt.at },
          { label: "Status", cell: (attempt) => attempt.status ?? "No answer" },
          { label: "Error", cell: (attempt) => attempt.error ?? "—" },
        ]}
      />
    </>
  );
}
