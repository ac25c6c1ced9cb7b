/**
 * One execution (docs/dashboard.md#screens, docs/api/webhooks.md#executions):
 * `/app/workflows/{id}/executions/{executionId}`. Its status, trigger, times, the execution it
 * replays, and each node's run with input, output, error and attempts; Owners and Admins replay
 * it; "Debug in editor" opens the editor with it on the canvas and its call as the sample. An unfinished execution is read again every second until it ends.
 */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api";
import { followLink, type PathParams } from "../../router";
import { Badge } from "../../ui/data";
import { QueryStatus } from "../../ui/feedback";
import { duration } from "../../ui/format";
import { Screen, Trail } from "../../ui/Screen";
import { ExecutionLink, took } from "./ExecutionList";
import { inputsOf, NodeRunView, Timing } from "./NodeRunView";
import { useWorkflow } from "./queries";
import { Replay } from "./Replay";
import { runTone, workflowPaths } from "./status";

/** `/app/workflows/{id}/executions/{executionId}`; `canChange` shows Replay. */
export function Execution({ canChange, params }: { canChange: boolean; params: PathParams }) {
  const workflowId = params.id ?? "";
  const executionId = params.executionId ?? "";
  const workflow = useWorkflow(workflowId);
  const execution = useQuery({
    queryKey: ["execution", workflowId, executionId],
    queryFn: () =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/executions/{executionId}", {
          params: { path: { id: workflowId, executionId } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data && query.state.data.finishedAt === null ? 1_000 : false,
  });
  const paths = workflowPaths(workflowId);
  const record = execution.data;
  const inputs = record ? inputsOf(record.nodes, record.trigger.key) : [];
  return (
    <Screen
      title={
        <>
          Execution <code className="anywhere">{executionId}</code>
        </>
      }
      breadcrumb={
        <Trail
          links={[
            { href: "/app/workflows", label: "Workflows" },
            { href: paths.executions, label: workflow.data?.name ?? "Workflow" },
          ]}
        />
      }
    >
      <QueryStatus query={execution} what="the execution" />
      {record ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <Badge tone={runTone(record.status)}>{record.status}</Badge>
            </dd>
            <dt>Mode</dt>
            <dd>{record.mode === "test" ? "Test (a builder's test run)" : "Production"}</dd>
            <dt>Trigger</dt>
            <dd>
              {record.trigger.key} <span className="muted">({record.trigger.type})</span>
            </dd>
            <Timing startedAt={record.startedAt} took={took(record)} />
            {record.queuedAt ? (
              <>
                <dt>Waited for a slot</dt>
                <dd>
                  {record.status === "queued"
                    ? "Still waiting"
                    : (duration(record.queuedAt, record.startedAt) ?? "—")}
                </dd>
              </>
            ) : null}
            <dt>Replay of</dt>
            <dd>
              <ExecutionLink
                workflowId={workflowId}
                id={record.replayOf}
                none="None (the original)"
              />
            </dd>
          </dl>
          <div className="actions">
            {canChange ? <Replay execution={record} /> : null}
            <a href={`${paths.editor}?debug=${encodeURIComponent(record.id)}`} onClick={followLink}>
              Debug in editor
            </a>
          </div>
          <h2>Nodes</h2>
          <p className="muted">
            In the order they ran. A node's input is what its templates could read: the outputs of
            the nodes before it. Secret values show as [redacted].
          </p>
          {record.nodes.map((run, index) => (
            <NodeRunView
              key={`${run.key}-${run.startedAt}`}
              run={run}
              input={inputs[index] ?? null}
            />
          ))}
        </>
      ) : null}
    </Screen>
  );
}
