/**
 * A workflow's request log (docs/webhooks.md#request-log): every call to its webhook URLs,
 * refusals included, newest first, filtered by outcome, 20 at a time with "Load more"
 * (`nextCursor`). A call's "View" button opens it with its headers and whole body.
 */
import { useState } from "react";
import { api, type Schemas } from "../../api";
import { RowAction } from "../../ui/DataTable";
import { Badge } from "../../ui/data";
import { Field } from "../../ui/Field";
import { Options } from "../../ui/FilterForm";
import { When } from "../../ui/feedback";
import { bytes } from "../../ui/format";
import { PagedTable } from "../../ui/PagedTable";
import { usePages } from "../../ui/paged";
import { ExecutionLink, ListSection } from "./ExecutionList";
import { RequestEntry } from "./RequestEntry";
import { OUTCOMES, type Outcome, outcomeTone } from "./status";

/** The Request log tab of workflow `workflowId` (docs/dashboard.md#screens). */
export function RequestLog({ workflowId }: { workflowId: string }) {
  const [outcome, setOutcome] = useState<Outcome | "">("");
  const [open, setOpen] = useState<Schemas["LoggedRequest"] | null>(null);
  const entries = usePages({
    queryKey: ["requests", workflowId, outcome],
    read: (paging) =>
      api.GET("/v1/manage/workflows/{id}/requests", {
        params: { path: { id: workflowId }, query: { ...paging, ...(outcome ? { outcome } : {}) } },
      }),
  });
  const filter = (
    <Field label="Outcome">
      {(control) => (
        <select
          {...control}
          value={outcome}
          onChange={(event) => setOutcome(event.currentTarget.value as Outcome | "")}
        >
          <option value="">All outcomes</option>
          <Options items={Object.entries(OUTCOMES).map(([value, label]) => ({ value, label }))} />
        </select>
      )}
    </Field>
  );
  return (
    <ListSection title="Request log" pages={entries.pages} filters={filter}>
      <p className="muted">Calls of the last 7 days, at most the newest 1,000.</p>
      <PagedTable
        list={entries}
        what="the request log"
        empty={<>No calls{outcome ? " with this outcome" : ""}.</>}
        more="Load more calls"
        columns={[
          {
            label: "Received",
            cell: (entry) => (
              <>
                <When iso={entry.receivedAt} />{" "}
                <RowAction target={`call ${entry.requestId}`} small onClick={() => setOpen(entry)}>
                  View
                </RowAction>
              </>
            ),
          },
          {
            label: "Outcome",
            cell: (entry) => (
              <Badge tone={outcomeTone(entry.outcome, entry.status)}>
                {OUTCOMES[entry.outcome]}
              </Badge>
            ),
          },
          { label: "Status", cell: (entry) => entry.status },
          { label: "Method", cell: (entry) => entry.method },
          { label: "Node", cell: (entry) => entry.nodeKey },
          { label: "Latency", className: "nowrap", cell: (entry) => `${entry.latencyMs} ms` },
          { label: "Size", className: "nowrap", cell: (entry) => bytes(entry.size) },
          {
            label: "Execution",
            cell: (entry) => (
              <ExecutionLink
                workflowId={workflowId}
                id={entry.executionId}
                none={<span className="muted">None</span>}
              />
            ),
          },
        ]}
      />
      <RequestEntry workflowId={workflowId} entry={open} onClose={() => setOpen(null)} />
    </ListSection>
  );
}
