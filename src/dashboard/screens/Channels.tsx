/**
 * An agent's channels (docs/dashboard.md#screens): each widget channel with its embed snippet, a
 * copy button, a live preview of the widget (`WidgetPreview`, any member) and its allowed sites
 * (`ChannelSites`) and whether it asks for ratings (`ChannelRating`); Owners and Admins add a
 * channel and change its sites and rating. The snippet names the
 * flow and channel; the page that embeds it adds the link's token (docs/api/launch.md).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api, readAll, type Schemas, unwrap } from "../api";
import { CopyButton } from "../ui/CopyButton";
import { Dialog } from "../ui/Dialog";
import { DialogActions } from "../ui/DialogActions";
import { Field } from "../ui/Field";
import { ListStatus } from "../ui/feedback";
import { useFormProblems } from "../ui/form-problems";
import { ChannelRating } from "./ChannelRating";
import { ChannelSites } from "./ChannelSites";
import { WidgetPreview } from "./WidgetPreview";

/** One channel: its snippet with a copy button, the preview's toggle and its allowed sites. */
function Snippet(props: {
  agent: Schemas["Agent"];
  channel: Schemas["Channel"];
  canChange: boolean;
}) {
  const { agent, channel } = props;
  const [previewing, setPreviewing] = useState(false);
  const region = useId();
  return (
    <div className="stack">
      <h3>{channel.name}</h3>
      <pre className="snippet">{channel.snippet}</pre>
      <div className="actions">
        <CopyButton text={channel.snippet} what={`snippet of ${channel.name}`} />
        <button
          type="button"
          className="small"
          aria-expanded={previewing}
          aria-controls={region}
          onClick={() => setPreviewing((open) => !open)}
        >
          {previewing ? "Hide the preview" : "Preview the widget"}
          <span className="visually-hidden"> of {channel.name}</span>
        </button>
      </div>
      <section id={region} aria-label={`Preview of ${channel.name}`} hidden={!previewing}>
        {previewing ? <WidgetPreview agent={agent} channel={channel} /> : null}
      </section>
      <ChannelSites agentId={agent.id} channel={channel} canChange={props.canChange} />
      <ChannelRating agentId={agent.id} channel={channel} canChange={props.canChange} />
    </div>
  );
}

/** The channels of `agent` in a dialog (closed while null); `canChange` adds and changes them. */
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
      readAll((query) =>
        unwrap(
          api.GET("/v1/manage/agents/{id}/channels", {
            params: { path: { id: agent?.id ?? "" }, query },
          }),
        ),
      ),
  });
  const form = useFormProblems({ name: { label: "Name" } });
  const add = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.POST("/v1/manage/agents/{id}/channels", {
          params: { path: { id: agent?.id ?? "" } },
          body: { type: "widget", name },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["channels", agent?.id] }),
    onError: form.refuseError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Cleared only once added: a refused name stays to be corrected.
    const target = event.currentTarget;
    add.mutate(String(new FormData(target).get("name") ?? ""), {
      onSuccess: () => {
        form.clear();
        target.reset();
      },
    });
  };
  return (
    <Dialog
      open={agent !== null}
      title={`Channels of ${agent?.name ?? ""}`}
      onClose={props.onClose}
      className="wide"
    >
      <div className="stack">
        <ListStatus query={channels} what="channels" count={channels.data?.data.length}>
          No channels yet.
        </ListStatus>
        {agent
          ? channels.data?.data.map((channel) => (
              <Snippet
                key={channel.id}
                agent={agent}
                channel={channel}
                canChange={props.canChange}
              />
            ))
          : null}
        {props.canChange ? (
          <form className="inline-form" onSubmit={submit}>
            {form.top}
            <Field label="New widget channel" error={form.at("name")}>
              {(control) => <input {...control} name="name" required maxLength={200} />}
            </Field>
            <button type="submit" disabled={add.isPending}>
              Add channel
            </button>
          </form>
        ) : null}
        <DialogActions
          mutation={{ isPending: add.isPending, error: form.shown(add.error) }}
          onClose={props.onClose}
          closeLabel="Close"
        />
      </div>
    </Dialog>
  );
}
