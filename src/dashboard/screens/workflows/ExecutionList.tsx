/**
 * A workflow's executions, newest first (docs/api/webhooks.md#executions): status (queued
 * included), trigger, start, duration and the execution a replay repeats, 20 at a time with
 * "Load more" (the `cursor` of the last page, docs/api/README.md#lists-and-paging); a builder's
 * test runs are marked and can be shown alone, or left out (docs/webhooks.md#test-runs). Also the workflow tabs' shared pieces: a
 * list's section with its filters and Refresh (`ListSection`) and a link to an execution (`ExecutionLink`).
 */
import { type ReactNode, useId, useState } from "react";
import { api, type Schemas } from "../../api";
import { followLink } from "../../router";
import { Badge } from "../../ui/data";
import { duration } from "../../ui/format";
import { PagedTable } from "../../ui/PagedTable";
import { usePages } from "../../ui/paged";
import { runTone, workflowPaths } from "./status";

type Mode = Schemas["Execution"]["mode"];

/** The Executions tab of workflow `workflowId` (docs/dashboard.md#screens). */
export function ExecutionList({ workflowId }: { workflowId: string }) {
  const [mode, setMode] = useState<Mode | "">("");
  const executions = usePages({
    queryKey: ["executions", workflowId, mode],
    read: (paging) =>
      api.GET("/v1/manage/workflows/{id}/executions", {
        params: { path: { id: workflowId }, query: { ...paging, ...(mode ? { mode } : {}) } },
      }),
  });
  const filter = (
    <label className="inline">
      Show{" "}
      <select value={mode} onChange={(event) => setMode(event.target.value as Mode | "")}>
        <option value="">All executions</option>
        <option value="production">Production only</option>
        <option value="test">Test runs only</option>
      </select>
    </label>
  );
  return (
    <ListSection title="Executions" pages={executions.pages} filters={filter}>
      <PagedTable
        list={executions}
        what="executions"
        empty="No executions yet: call one of the workflow's webhook URLs."
        more="Load more executions"
        columns={[
          {
            label: "Execution",
            cell: (execution) => <ExecutionLink workflowId={workflowId} id={execution.id} />,
          },
          {
            label: "Status",
            cell: (execution) => <Badge tone={runTone(execution.status)}>{execution.status}</Badge>,
          },
          {
            label: "Trigger",
            cell: (execution) => (
              <>
                {execution.trigger.key} <span className="muted">({execution.trigger.type})</span>
              </>
            ),
          },
          { label: "Started", when: (execution) => execution.startedAt },
          { label: "Duration", className: "nowrap", cell: took },
          {
            label: "Mode",
            cell: (execution) =>
              execution.mode === "test" ? <Badge tone="busy">test</Badge> : "production",
          },
          {
            label: "Replay of",
            cell: (execution) => (
              <ExecutionLink
                workflowId={workflowId}
                id={execution.replayOf}
                none={<span className="muted">—</span>}
              />
            ),
          },
        ]}
      />
    </ListSection>
  );
}

/** How long an execution took, or what it is doing while it has not finished. */
export function took(execution: Schemas["Execution"]): string {
  if (execution.status === "queued") return "Waiting for a slot";
  return duration(execution.startedAt, execution.finishedAt) ?? "Running";
}

/**
 * A workflow tab's list (the executions, the request log): a section named by its `title`
 * heading, with what filters it (`filters`) and Refresh, which reads the list again and says so
 * while it does; the list (`children`) below.
 */
export function ListSection(props: {
  title: string;
  pages: { refetch: () => unknown; isFetching: boolean; isPending: boolean };
  filters: ReactNode;
  children: ReactNode;
}) {
  const { pages } = props;
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <div className="toolbar">
        <h2 id={titleId}>{props.title}</h2>
        {props.filters}
        <button type="button" className="small" onClick={() => void pages.refetch()}>
          Refresh
        </button>
        <span role="status" className="muted">
          {pages.isFetching && !pages.isPending ? "Refreshing…" : ""}
        </span>
      </div>
      {props.children}
    </section>
  );
}

/** A link to execution `id` of workflow `workflowId`, or `none` when there is none. */
export function ExecutionLink(props: {
  workflowId: string;
  id: string | null | undefined;
  none?: ReactNode;
}) {
  if (!props.id) return <>{props.none}</>;
  return (
    <a href={workflowPaths(props.workflowId).execution(props.id)} onClick={followLink}>
      <code>{props.id}</code>
    </a>
  );
}
