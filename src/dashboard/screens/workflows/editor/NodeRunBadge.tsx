/**
 * A node's run in the execution shown on the canvas (docs/dashboard.md#workflow-editor): its
 * status and duration, then its error (a failed node is outlined red) or a one-line preview of its
 * output; nothing when no execution is shown or the node did not run in it.
 */
import "./run.css";
import { Badge } from "../../../ui/data";
import { runTone } from "../status";
import { useNodeRun } from "./run-context";

/** The run of node `nodeKey`, inside the node on the canvas. */
export function NodeRunBadge({ nodeKey }: { nodeKey: string }) {
  const run = useNodeRun(nodeKey);
  if (!run) return null;
  return (
    <div className={`wf-run wf-run-${run.status}`}>
      <span className="wf-run-status">
        <Badge tone={runTone(run.status)}>{run.status}</Badge>
        {run.took ? ` in ${run.took}` : ""}
        {run.runs > 1 ? ` (ran ${run.runs} times)` : ""}
      </span>
      {run.error ? (
        <span className="wf-run-error">{run.error}</span>
      ) : run.preview ? (
        <code className="wf-run-output" title={run.preview}>
          {run.preview}
        </code>
      ) : null}
    </div>
  );
}
