/**
 * An agent's channels (docs/dashboard.md#screens): each widget channel with its embed snippet and
 * a copy button; Owners and Admins add one. The snippet names the flow and channel; the page
 * that embeds it adds the link's token (docs/api/launch.md).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api, type Schemas, unwrap } from "../api";
import { CopyButton } from "../ui/CopyButton";
import { Dialog } from "../ui/Dialog";
import { ErrorNote, Loading } from "../ui/feedback";

function Snippet({ channel }: { channel: Schemas["Channel"] }) {
  return (
    <div className="stack">
      <h3>{channel.name}</h3>
      <pre className="snippet">{channel.snippet}</pre>
      <div className="actions">
        <CopyButton text={channel.snippet} what={`snippet of ${channel.name}`} />
      </div>
    </div>
  );
}

export function Channels(props: {
  agent: Schemas["Agent"] | null;
  canChange: boolean;
  onClose: () => void;
}) {
  const { agent } = props;
  const queries = useQueryClient();
  const channels = useQuery({
    queryKey: ["channels", agent?.id],
    enabled: agent !== null,
    queryFn: () =>
      unwrap(
        api.GET("/v1/manage/agents/{id}/channels", { params: { path: { id: agent?.id ?? "" } } }),
      ),
  });
  const add = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.POST("/v1/manage/agents/{id}/channels", {
          params: { path: { id: agent?.id ?? "" } },
          body: { type: "widget", name },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["channels", agent?.id] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // Cleared only once added: a refused name stays to be corrected.
    add.mutate(String(new FormData(form).get("name") ?? ""), { onSuccess: () => form.reset() });
  };
  return (
    <Dialog
      open={agent !== null}
      title={`Channels of ${agent?.name ?? ""}`}
      onClose={props.onClose}
    >
      <div className="stack">
        {channels.isPending ? <Loading what="channels" /> : null}
        {channels.isError ? <ErrorNote error={channels.error} /> : null}
        {channels.data?.data.length === 0 ? <p className="muted">No channels yet.</p> : null}
        {channels.data?.data.map((channel) => (
          <Snippet key={channel.id} channel={channel} />
        ))}
        {props.canChange ? (
          <form className="inline-form" onSubmit={submit}>
            <label htmlFor="channel-name">New widget channel</label>
            <input id="channel-name" name="name" required maxLength={200} />
            <button type="submit" disabled={add.isPending}>
              Add channel
            </button>
          </form>
        ) : null}
        {add.isError ? <ErrorNote error={add.error} /> : null}
        <div className="actions">
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
