/**
 * One call of the request log in a dialog (docs/webhooks.md#request-log): when and how it came,
 * how it was answered and why it was refused, its headers (credentials `[redacted]`) and its
 * whole body (GET /v1/manage/workflows/{id}/requests/{requestId}), indented when it is JSON.
 */
import { useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { DataTable } from "../../ui/DataTable";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { Badge } from "../../ui/data";
import { QueryStatus, When } from "../../ui/feedback";
import { bytes, prettyBody } from "../../ui/format";
import { ExecutionLink } from "./ExecutionList";
import { OUTCOMES, outcomeTone, reasonToldToCaller } from "./status";

type Entry = Schemas["LoggedRequest"];

/** The dialog of logged call `entry` (closed while null); its body is fetched on opening. */
export function RequestEntry(props: {
  workflowId: string;
  entry: Entry | null;
  onClose: () => void;
}) {
  const entry = props.entry;
  return (
    <Dialog open={entry !== null} title="Logged call" onClose={props.onClose} className="wide">
      {entry ? <EntryDetail workflowId={props.workflowId} entry={entry} /> : null}
      <DialogActions onClose={props.onClose} closeLabel="Close" />
    </Dialog>
  );
}

function EntryDetail({ workflowId, entry }: { workflowId: string; entry: Entry }) {
  const detail = useQuery({
    queryKey: ["request", workflowId, entry.id],
    queryFn: () =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/requests/{requestId}", {
          params: { path: { id: workflowId, requestId: entry.id } },
        }),
      ),
  });
  return (
    <div className="stack">
      <dl className="facts">
        <dt>Received</dt>
        <dd>
          <When iso={entry.receivedAt} />
        </dd>
        <dt>Request id</dt>
        <dd>
          <code>{entry.requestId}</code>
        </dd>
        <dt>Call</dt>
        <dd>
          {entry.method} to {entry.nodeKey}, {bytes(entry.size)}
        </dd>
        <dt>Answer</dt>
        <dd>
          {entry.status}{" "}
          <Badge tone={outcomeTone(entry.outcome, entry.status)}>{OUTCOMES[entry.outcome]}</Badge>{" "}
          in {entry.latencyMs} ms
        </dd>
        {entry.reason ? (
          <>
            <dt>Why refused</dt>
            <dd>
              <code>{entry.reason}</code>{" "}
              <span className="muted">
                {reasonToldToCaller(entry.outcome)
                  ? "(the caller's answer said this too)"
                  : "(kept from the caller, whose answer says only that the signature did not verify)"}
              </span>
            </dd>
          </>
        ) : null}
        <dt>Execution</dt>
        <dd>
          <ExecutionLink workflowId={workflowId} id={entry.executionId} none="None" />
        </dd>
      </dl>
      <h3>Headers</h3>
      <DataTable
        rows={Object.entries(entry.headers)}
        rowKey={([name]) => name}
        columns={[
          { label: "Name", cell: ([name]) => <code>{name}</code> },
          { label: "Value", cell: ([, value]) => <code>{value}</code> },
        ]}
      />
      <h3>Body</h3>
      <QueryStatus query={detail} what="the body" />
      {detail.data ? <Body detail={detail.data} /> : null}
    </div>
  );
}

function Body({ detail }: { detail: Schemas["LoggedRequestDetail"] }) {
  if (detail.body === null) {
    if (!detail.bodyPreview) return <p className="muted">Not read (the call was refused first).</p>;
    return (
      <>
        <p className="muted">Only its first 2 KiB were kept:</p>
        <pre className="body">{detail.bodyPreview}</pre>
      </>
    );
  }
  if (detail.body === "") return <p className="muted">Empty.</p>;
  if (detail.bodyEncoding === "base64") {
    return (
      <>
        <p className="muted">Not UTF-8 text; shown as base64:</p>
        <pre className="body">{detail.body}</pre>
      </>
    );
  }
  return <pre className="body">{prettyBody(detail.body)}</pre>;
}
