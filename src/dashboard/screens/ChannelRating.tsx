/**
 * A widget channel's rating setting (docs/dashboard.md#screens, docs/api/conversations.md#rating):
 * whether its chat asks the person "How was this conversation?" once the conversation ends.
 * Every member sees it; Owners and Admins change it with the checkbox, saved at once.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { Problems } from "../ui/feedback";

/** The rating checkbox of `channel` of agent `agentId`; disabled unless `canChange`. */
export function ChannelRating(props: {
  agentId: string;
  channel: Schemas["Channel"];
  canChange: boolean;
}) {
  const { agentId, channel } = props;
  const hint = useId();
  const queries = useQueryClient();
  const [note, setNote] = useState("");
  // Set in the click's own handler, so the box shows the choice at once (a mutation's pending
  // state only arrives on a later render, and the controlled box would spring back meanwhile).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (rating: boolean) =>
      unwrap(
        api.PATCH("/v1/manage/agents/{id}/channels/{channelId}", {
          params: { path: { id: agentId, channelId: channel.id } },
          body: { rating },
        }),
      ),
    onSuccess: async (saved) => {
      setNote(saved.rating ? "Ratings are asked for." : "Ratings are no longer asked for.");
      await queries.invalidateQueries({ queryKey: ["channels", agentId] });
    },
    onError: () => setNote(""),
    onSettled: () => setChosen(null),
  });
  return (
    <div className="stack">
      <h4>Rating</h4>
      <label className="check">
        <input
          type="checkbox"
          checked={chosen ?? channel.rating}
          disabled={!props.canChange || save.isPending}
          aria-describedby={hint}
          onChange={(event) => {
            setChosen(event.target.checked);
            save.mutate(event.target.checked);
          }}
        />{" "}
        Ask for a rating when a chat ends
        <span className="visually-hidden"> ({channel.name})</span>
      </label>
      <p id={hint} className="muted hint">
        The person rates the conversation 1 to 5, with an optional comment. The rating shows on the
        link's page and is sent as the <code>conversation.rated</code> event.
      </p>
      <p role="status">{note}</p>
      <Problems problems={save.error ? [save.error.message] : []} />
    </div>
  );
}
