/**
 * A workflow's request log (docs/webhooks.md#request-log): every call to its webhook URLs,
 * refusals included, newest first, filtered by outcome, 20 at a time with "Load more"
 * (`nextCursor`). A call's "View" button opens it with its headers and whole body.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { followLink } from "../../router";
import { Badge } from "../../ui/data";
import { ListStatus, When } from "../../ui/feedback";
import { bytes } from "../../ui/format";
import { LoadMore } from "../../ui/LoadMore";
import { RequestEntry } from "./RequestEntry";
import { OUTCOMES, type Outcome, outcomeTone, workflowPaths } from "./status";

const PAGE = 20;

/** The Request log tab of workflow `workflowId` (docs/dashboard.md#screens). */
export function RequestLog({ workflowId }: { workflowId: string }) {
  const [outcome, setOutcome] = useState<Outcome | "">("");
  const [open, setOpen] = useState<Schemas["LoggedRequest"] | null>(null);
  const filterId = useId();
  const pages = useInfiniteQuery({
    queryKey: ["requests", workflowId, outcome],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/requests", {
          params: {
            path: { id: workflowId },
            query: {
              limit: PAGE,
              ...(outcome ? { outcome } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const paths = workflowPaths(workflowId);
  return (
    <section aria-labelledby="requests-title">
      <div className="toolbar">
        <h2 id="requests-title">Request log</h2>
        <label htmlFor={filterId}>Outcome</label>
        <select
          id={filterId}
          value={outcome}
          onChange={(event) => setOutcome(event.currentTarget.value as Outcome | "")}
        >
          <option value="">All outcomes</option>
          {Object.entries(OUTCOMES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="button" className="small" onClick={() => void pages.refetch()}>
          Refresh
        </button>
        <span role="status" className="muted">
          {pages.isFetching && !pages.isPending ? "Refreshing…" : ""}
        </span>
      </div>
      <p className="muted">Calls of the last 7 days, at most the newest 1,000.</p>
      <ListStatus
        query={pages}
        what="the request log"
        count={pages.data ? entries.length : undefined}
      >
        No calls{outcome ? " with this outcome" : ""}.
      </ListStatus>
      {entries.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Outcome</th>
                <th scope="col">Status</th>
                <th scope="col">Method</th>
                <th scope="col">Node</th>
                <th scope="col">Latency</th>
                <th scope="col">Size</th>
                <th scope="col">Execution</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row">
                    <When iso={entry.receivedAt} />{" "}
                    <button type="button" className="small" onClick={() => setOpen(entry)}>
                      View<span className="visually-hidden"> call {entry.requestId}</span>
                    </button>
                  </th>
                  <td>
                    <Badge tone={outcomeTone(entry.outcome)}>{OUTCOMES[entry.outcome]}</Badge>
                  </td>
                  <td>{entry.status}</td>
                  <td>{entry.method}</td>
                  <td>{entry.nodeKey}</td>
                  <td className="nowrap">{entry.latencyMs} ms</td>
                  <td className="nowrap">{bytes(entry.size)}</td>
                  <td>
                    {entry.executionId ? (
                      <a href={paths.execution(entry.executionId)} onClick={followLink}>
                        <code>{entry.executionId}</code>
                      </a>
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore pages={pages} label="Load more calls" />
      <RequestEntry workflowId={workflowId} entry={open} onClose={() => setOpen(null)} />
    </section>
  );
}
