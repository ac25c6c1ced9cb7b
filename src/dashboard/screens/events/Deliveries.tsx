/**
 * An endpoint's delivery log (docs/events.md#delivery-log, docs/dashboard.md#screens): newest
 * first, each delivery's event type, status, attempts and last response; Owners and Admins resend
 * one. Read again every 2 s while a delivery is pending, so a resend's outcome shows by itself.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { Badge, type Tone } from "../../ui/data";
import { ErrorNote, ListStatus, When } from "../../ui/feedback";
import { LoadMore } from "../../ui/LoadMore";
import { TableScroll } from "../../ui/TableScroll";

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
  const log = useInfiniteQuery({
    queryKey: ["event-deliveries", props.id],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/v1/manage/event-endpoints/{id}/deliveries", {
          params: { path: { id: props.id }, query: pageParam ? { cursor: pageParam } : {} },
        }),
      ),
    getNextPageParam: (page) => (page.hasMore ? (page.nextCursor ?? undefined) : undefined),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((d) => d.status === "pending"))
        ? 2000
        : false,
  });
  const rows = log.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Delivery log</h2>
      <ListStatus query={log} what="the delivery log" count={log.data ? rows.length : undefined}>
        Nothing delivered yet.
      </ListStatus>
      {rows.length > 0 ? (
        <TableScroll label="Delivery log">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last response</th>
                <th scope="col">Created</th>
                {props.canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="delivery-rows">
              {rows.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">
                    <code>{delivery.eventType}</code>
                  </th>
                  <td>
                    <Badge tone={TONES[delivery.status]}>{LABELS[delivery.status]}</Badge>
                  </td>
                  <td>{delivery.attempts.length}</td>
                  <td>{lastResponse(delivery)}</td>
                  <td>
                    <When iso={delivery.createdAt} />
                  </td>
                  {props.canChange ? (
                    <td>
                      <Resend endpointId={props.id} delivery={delivery} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <LoadMore pages={log} label="Load more" />
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
      <button type="button" disabled={resend.isPending} onClick={() => resend.mutate()}>
        Resend<span className="visually-hidden"> {props.delivery.eventType}</span>
      </button>
      <span role="status">{resend.isSuccess ? "Sent again." : ""}</span>
      {resend.isError ? <ErrorNote error={resend.error} /> : null}
    </span>
  );
}
