/**
 * "Send test event" (docs/events.md#delivery-log): POST …/{id}/test sends an `event.test` with
 * one attempt and answers its delivery; the outcome is announced in a status next to the button,
 * and the endpoint's delivery log and health are read again so the new delivery shows.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { RowAction } from "../../ui/DataTable";
import { ErrorNote } from "../../ui/feedback";

/** A delivery's outcome after `Test event`, e.g. "delivered (answered 204)". */
export function outcome(delivery: Schemas["Delivery"]): string {
  const last = delivery.attempts.at(-1);
  const answer = last
    ? last.responseStatus === null
      ? "no answer"
      : `answered ${last.responseStatus}`
    : "not sent yet";
  if (delivery.status === "succeeded") return `delivered (${answer})`;
  if (delivery.status === "failed") return `failed (${answer})`;
  return `not delivered yet (${answer})`;
}

/** The button for endpoint `id` (its URL named for screen readers) and the test's outcome. */
export function SendTest(props: { id: string; url: string }) {
  const queries = useQueryClient();
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/manage/event-endpoints/{id}/test", { params: { path: { id: props.id } } }),
      ),
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: ["event-deliveries", props.id] });
      // A success ends the endpoint's incident (docs/operations.md#incidents): its health changes.
      await queries.invalidateQueries({ queryKey: ["event-endpoints"] });
    },
  });
  return (
    <span className="test-event">
      <RowAction target={`to ${props.url}`} disabled={send.isPending} onClick={() => send.mutate()}>
        Send test event
      </RowAction>
      <span role="status">
        {send.isPending ? "Sending…" : null}
        {send.data ? `Test event ${outcome(send.data)}.` : null}
      </span>
      {send.isError ? <ErrorNote error={send.error} /> : null}
    </span>
  );
}
