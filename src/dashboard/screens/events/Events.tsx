/**
 * Settings › Events (docs/dashboard.md#screens): the workspace's event endpoints with their URL,
 * event types, status, health (failing since when, the last error) and creation time. Owners and Admins add one (its signing secret shown
 * once), send it a test event and delete it after confirming; a URL opens the endpoint's page.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, readAll, type Schemas, unwrap } from "../../api";
import { followLink } from "../../router";
import { DataTable, RowAction } from "../../ui/DataTable";
import { Screen } from "../../ui/Screen";
import { AddEndpoint, DeleteEndpoint } from "./EndpointDialogs";
import { describeEvents } from "./event-types";
import { HealthNote, StatusBadge } from "./Health";
import { SendTest } from "./SendTest";
import "./events.css";

type Endpoint = Schemas["EventEndpoint"];

/** The endpoints list; `canChange` shows the controls of Owners and Admins. */
export function Events({ canChange }: { canChange: boolean }) {
  const endpoints = useQuery({
    queryKey: ["event-endpoints"],
    queryFn: () =>
      readAll((query) => unwrap(api.GET("/v1/manage/event-endpoints", { params: { query } }))),
  });
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  return (
    <Screen
      title="Events"
      breadcrumb="Settings"
      intro="Your server learns what happens to its links without polling: each endpoint receives the events it chose, POSTed and signed with its secret."
      action={canChange && { label: "Add endpoint", onClick: () => setAdding(true) }}
    >
      <DataTable
        list={{ query: endpoints, what: "event endpoints", empty: "No endpoints yet." }}
        columns={[
          {
            label: "URL",
            className: "anywhere",
            cell: (endpoint) => (
              <>
                <a href={`/app/settings/events/${endpoint.id}`} onClick={followLink}>
                  {endpoint.url}
                </a>
                {endpoint.description ? (
                  <span className="muted endpoint-description">{endpoint.description}</span>
                ) : null}
              </>
            ),
          },
          { label: "Events", cell: (endpoint) => describeEvents(endpoint.events) },
          { label: "Status", cell: (endpoint) => <StatusBadge status={endpoint.status} /> },
          { label: "Health", cell: (endpoint) => <HealthNote health={endpoint.health} /> },
          { label: "Created", when: (endpoint) => endpoint.createdAt },
        ]}
        actionsClass="row-actions"
        actions={
          canChange &&
          ((endpoint) => (
            <>
              <SendTest id={endpoint.id} url={endpoint.url} />
              <RowAction target={endpoint.url} danger onClick={() => setDeleting(endpoint)}>
                Delete
              </RowAction>
            </>
          ))
        }
      />
      <AddEndpoint open={adding} onClose={() => setAdding(false)} />
      <DeleteEndpoint endpoint={deleting} onClose={() => setDeleting(null)} />
    </Screen>
  );
}
