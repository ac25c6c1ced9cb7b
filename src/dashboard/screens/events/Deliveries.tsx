/**
 * An endpoint's delivery log (docs/events.md#delivery-log, docs/dashboard.md#screens): newest
 * first, each delivery's event type, status, attempts and last response; Owners and Admins resend
 * one. Read again every 2 s while a delivery is pending, so a resend's outcome shows by itself.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { RowAction } from "../../ui/DataTable";
import { Badge, type Tone } from "../../ui/data";
import { ErrorNote } from "../../ui/feedback";
import { PagedTable } from "../../ui/PagedTable";
import { usePages } from "../../ui/paged";

type Delivery = Schemas["Delivery"];

const TONES: Record<Delivery["status"], Tone> = { succeeded: "ok", failed: "bad", pending: "busy" };
const LABELS: Record<Delivery["status"], string> = {
  succeeded: "Succeeded",
  failed: "Failed",
  pending: "Pending",
};

/** The last attempt's HTTP status, "No answer" (timeout or network error) or a dash. */
function lastResponse(delivery: Delivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return "—";
  return last.responseStatus === null ? "No answer" : String(last.responseStatus);
}

/** The log of endpoint `id`, 20 at a time with Load more. */
export function Deliveries(props: { id: string; canChange: boolean }) {
  const log = usePages({
    queryKey: ["event-deliveries", props.id],
    read: (query) =>
      api.GET("/v1/manage/event-endpoints/{id}/deliveries", {
        params: { path: { id: props.id }, query },
      }),
    refetchInterval: (rows) => (rows.some((d) => d.status === "pending") ? 2000 : false),
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Delivery log</h2>
      <PagedTable
        list={log}
        what="the delivery log"
        empty="Nothing delivered yet."
        label="Delivery log"
        bodyClassName="delivery-rows"
        columns={[
          { label: "Event", cell: (delivery) => <code>{delivery.eventType}</code> },
          {
            label: "Status",
            cell: (delivery) => (
              <Badge tone={TONES[delivery.status]}>{LABELS[delivery.status]}</Badge>
            ),
          },
          { label: "Attempts", cell: (delivery) => delivery.attempts.length },
          { label: "Last response", cell: lastResponse },
          { label: "Created", when: (delivery) => delivery.createdAt },
        ]}
        actions={
          props.canChange && ((delivery) => <Resend endpointId={props.id} delivery={delivery} />)
        }
      />
    </section>
  );
}

/** Resend one delivery (202: queued again with a fresh retry schedule); errors shown beside it. */
function Resend(props: { endpointId: string; delivery: Delivery }) {
  const queries = useQueryClient();
  const resend = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/manage/event-endpoints/{id}/deliveries/{deliveryId}/resend", {
          params: { path: { id: props.endpointId, deliveryId: props.delivery.id } },
        }),
      ),
    onSuccess: () =>
      queries.invalidateQueries({ queryKey: ["event-deliveries", props.endpointId] }),
  });
  return (
    <span className="test-event">
      <RowAction
        target={props.delivery.eventType}
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        Resend
      </RowAction>
      <span role="status">{resend.isSuccess ? "Sent again." : ""}</span>
      {resend.isError ? <ErrorNote error={resend.error} /> : null}
    </span>
  );
}
