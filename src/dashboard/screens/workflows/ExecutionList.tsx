/**
 * A workflow's executions, newest first (docs/api/webhooks.md#executions): status (queued
 * included), trigger, start, duration and the execution a replay repeats, 20 at a time with
 * "Load more" (`startingAfter` the last one shown).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { followLink } from "../../router";
import { Badge } from "../../ui/data";
import { ListStatus, When } from "../../ui/feedback";
import { duration } from "../../ui/format";
import { LoadMore } from "../../ui/LoadMore";
import { runTone, workflowPaths } from "./status";

const PAGE = 20;

/** The Executions tab of workflow `workflowId` (docs/dashboard.md#screens). */
export function ExecutionList({ workflowId }: { workflowId: string }) {
  const pages = useInfiniteQuery({
    queryKey: ["executions", workflowId],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/executions", {
          params: {
            path: { id: workflowId },
            query: { limit: PAGE, ...(pageParam ? { startingAfter: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.data.at(-1)?.id : undefined),
  });
  const executions = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const paths = workflowPaths(workflowId);
  return (
    <section aria-labelledby="executions-title">
      <div className="toolbar">
        <h2 id="executions-title">Executions</h2>
        <button type="button" className="small" onClick={() => void pages.refetch()}>
          Refresh
        </button>
        <span role="status" className="muted">
          {pages.isFetching && !pages.isPending ? "Refreshing…" : ""}
        </span>
      </div>
      <ListStatus
        query={pages}
        what="executions"
        count={pages.data ? executions.length : undefined}
      >
        No executions yet: call one of the workflow's webhook URLs.
      </ListStatus>
      {executions.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Execution</th>
                <th scope="col">Status</th>
                <th scope="col">Trigger</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Replay of</th>
              </tr>
            </thead>
            <tbody>
              {executions.map((execution) => (
                <tr key={execution.id}>
                  <th scope="row">
                    <a href={paths.execution(execution.id)} onClick={followLink}>
                      <code>{execution.id}</code>
                    </a>
                  </th>
                  <td>
                    <Badge tone={runTone(execution.status)}>{execution.status}</Badge>
                  </td>
                  <td>
                    {execution.trigger.key}{" "}
                    <span className="muted">({execution.trigger.type})</span>
                  </td>
                  <td>
                    <When iso={execution.startedAt} />
                  </td>
                  <td className="nowrap">{took(execution)}</td>
                  <td>
                    {execution.replayOf ? (
                      <a href={paths.execution(execution.replayOf)} onClick={followLink}>
                        <code>{execution.replayOf}</code>
                      </a>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore pages={pages} label="Load more executions" />
    </section>
  );
}

/** How long an execution took, or what it is doing while it has not finished. */
export function took(execution: Schemas["Execution"]): string {
  if (execution.status === "queued") return "Waiting for a slot";
  return duration(execution.startedAt, execution.finishedAt) ?? "Running";
}
