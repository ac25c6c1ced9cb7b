/**
 * The live preview of a widget channel (docs/dashboard.md#widget-preview): the real widget, the
 * same `/widget.js` customers embed, on a stand-in page in a frame, with a preview link of the
 * signed-in member's own (`POST /v1/manage/agents/{id}/channels/{channelId}/preview-link`). An
 * agent with Initial Parameters asks for their values first. Asking again gives the same live
 * link, so the conversation goes on across openings until **Restart conversation**.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ErrorNote, QueryStatus } from "../ui/feedback";
import { type PreviewValueMap, PreviewValues } from "./PreviewValues";
import "./widget-preview.css";

export function WidgetPreview(props: { agent: Schemas["Agent"]; channel: Schemas["Channel"] }) {
  const { agent, channel } = props;
  const asksValues = agent.parameters.length > 0;
  const [values, setValues] = useState<PreviewValueMap | null>(asksValues ? null : {});
  const [editing, setEditing] = useState(asksValues);
  const queries = useQueryClient();
  const key = ["preview", agent.id, channel.id, values];
  const ask = (restart: boolean) =>
    unwrap(
      api.POST("/v1/manage/agents/{id}/channels/{channelId}/preview-link", {
        params: { path: { id: agent.id, channelId: channel.id } },
        body: { parameters: values ?? {}, ...(restart ? { restart } : {}) },
      }),
    );
  // Asking without `restart` is safe to repeat: the server gives the live link again.
  const preview = useQuery({
    queryKey: key,
    enabled: values !== null && !editing,
    queryFn: () => ask(false),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const restart = useMutation({
    mutationFn: () => ask(true),
    onSuccess: (fresh) => queries.setQueryData(key, fresh),
  });
  const link = preview.data;
  const page = link ? new URL(link.previewUrl).pathname : null;

  if (editing) {
    return (
      <PreviewValues
        parameters={agent.parameters}
        values={values}
        onSubmit={(next) => {
          setValues(next);
          setEditing(false);
        }}
      />
    );
  }
  return (
    <div className="stack">
      <QueryStatus query={preview} what="the preview" />
      {link && page ? (
        <>
          <iframe
            className="widget-preview"
            title={`Widget preview of ${channel.name}`}
            src={page}
            // The launcher sits in the frame's bottom corner: bring all of it into the dialog's view.
            onLoad={(event) => event.currentTarget.scrollIntoView({ block: "nearest" })}
          />
          <p className="muted preview-note">
            A real conversation, as you ({link.participant.name}): Links lists it under{" "}
            <code className="anywhere">{link.participant.externalId}</code> with "Show preview
            links" ticked, and it sends events and starts workflows like any link.
          </p>
        </>
      ) : null}
      {restart.isError ? <ErrorNote error={restart.error} /> : null}
      <div className="actions">
        {link ? (
          <button type="button" onClick={() => restart.mutate()} disabled={restart.isPending}>
            Restart conversation
          </button>
        ) : null}
        {asksValues ? (
          <button type="button" onClick={() => setEditing(true)}>
            Change values
          </button>
        ) : null}
        {page ? (
          <a href={page} target="_blank" rel="noopener">
            Open in a new tab
          </a>
        ) : null}
      </div>
    </div>
  );
}
