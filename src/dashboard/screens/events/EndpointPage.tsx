/**
 * An event endpoint's page, /app/settings/events/{id} (docs/dashboard.md#screens): its settings
 * and health, and for Owners and Admins enable/disable, auto-recover on/off, rotate the secret
 * (shown once), send a test event and delete; then its delivery log (Deliveries.tsx).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api";
import { followLink, navigate, type PathParams } from "../../router";
import { ErrorNote, QueryStatus, When } from "../../ui/feedback";
import { Screen } from "../../ui/Screen";
import { Deliveries } from "./Deliveries";
import { DeleteEndpoint, RotateSecret } from "./EndpointDialogs";
import { describeEvents } from "./event-types";
import { HealthNote, StatusBadge } from "./Health";
import { SendTest } from "./SendTest";
import "./events.css";

/** The page of endpoint `params.id`; `canChange` shows the controls of Owners and Admins. */
export function EndpointPage({ canChange, params }: { canChange: boolean; params: PathParams }) {
  const id = params.id ?? "";
  const queries = useQueryClient();
  const endpoint = useQuery({
    queryKey: ["event-endpoints", id],
    queryFn: () => unwrap(api.GET("/v1/manage/event-endpoints/{id}", { params: { path: { id } } })),
  });
  const toggle = useMutation({
    mutationFn: (body: { status?: "enabled" | "disabled"; autoRecover?: boolean }) =>
      unwrap(api.PATCH("/v1/manage/event-endpoints/{id}", { params: { path: { id } }, body })),
    onSuccess: (changed) => {
      queries.setQueryData(["event-endpoints", id], changed);
      void queries.invalidateQueries({ queryKey: ["event-endpoints"], exact: true });
    },
  });
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const data = endpoint.data;
  return (
    <Screen
      title="Event endpoint"
      breadcrumb={
        <>
          Settings ›{" "}
          <a href="/app/settings/events" onClick={followLink}>
            Events
          </a>
        </>
      }
    >
      <QueryStatus query={endpoint} what="the endpoint" />
      {data ? (
        <>
          <dl className="facts">
            <dt>URL</dt>
            <dd className="anywhere">
              <code>{data.url}</code>
            </dd>
            <dt>Description</dt>
            <dd>{data.description ?? <span className="muted">—</span>}</dd>
            <dt>Events</dt>
            <dd>{describeEvents(data.events)}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
            <dt>Health</dt>
            <dd>
              <HealthNote health={data.health} />
            </dd>
            <dt>Auto-recover</dt>
            <dd>
              {data.autoRecover
                ? "On: the first success after a failing period resends what failed in it"
                : "Off"}
            </dd>
            <dt>Transcript on conversation.ended</dt>
            <dd>{data.includeTranscript ? "Included" : "Not included"}</dd>
            <dt>Created</dt>
            <dd>
              <When iso={data.createdAt} />
            </dd>
          </dl>
          {canChange ? (
            <div className="actions endpoint-actions">
              <button
                type="button"
                disabled={toggle.isPending}
                onClick={() =>
                  toggle.mutate({ status: data.status === "enabled" ? "disabled" : "enabled" })
                }
              >
                {data.status === "enabled" ? "Disable" : "Enable"}
              </button>
              <button
                type="button"
                disabled={toggle.isPending}
                onClick={() => toggle.mutate({ autoRecover: !data.autoRecover })}
              >
                {data.autoRecover ? "Turn off auto-recover" : "Turn on auto-recover"}
              </button>
              <button type="button" onClick={() => setRotating(true)}>
                Rotate secret
              </button>
              <SendTest id={data.id} url={data.url} />
              <button type="button" className="danger" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </div>
          ) : null}
          {toggle.isError ? <ErrorNote error={toggle.error} /> : null}
          <Deliveries id={data.id} canChange={canChange} />
          <RotateSecret endpoint={rotating ? data : null} onClose={() => setRotating(false)} />
          <DeleteEndpoint
            endpoint={deleting ? data : null}
            onClose={() => setDeleting(false)}
            onDeleted={() => navigate("/app/settings/events")}
          />
        </>
      ) : null}
    </Screen>
  );
}
