/**
 * Settings › Events (docs/dashboard.md#screens): the workspace's event endpoints with their URL,
 * event types, status, health (failing since when, the last error) and creation time. Owners and Admins add one (its signing secret shown
 * once), send it a test event and delete it after confirming; a URL opens the endpoint's page.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { followLink } from "../../router";
import { Badge } from "../../ui/data";
import { ListStatus, When } from "../../ui/feedback";
import { TableScroll } from "../../ui/TableScroll";
import { AddEndpoint, DeleteEndpoint } from "./EndpointDialogs";
import { describeEvents } from "./event-types";
import { HealthNote } from "./Health";
import { SendTest } from "./SendTest";
import "./events.css";

type Endpoint = Schemas["EventEndpoint"];

/** The endpoints list; `canChange` shows the controls of Owners and Admins. */
export function Events({ canChange }: { canChange: boolean }) {
  const endpoints = useQuery({
    queryKey: ["event-endpoints"],
    queryFn: () => unwrap(api.GET("/v1/manage/event-endpoints")),
  });
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const list = endpoints.data?.data;
  return (
    <section aria-labelledby="events-title">
      <p className="breadcrumb">Settings</p>
      <h1 id="events-title" tabIndex={-1}>
        Events
      </h1>
      <p className="muted">
        Your server learns what happens to its links without polling: each endpoint receives the
        events it chose, POSTed and signed with its secret.
      </p>
      {canChange ? (
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      ) : null}
      <ListStatus query={endpoints} what="event endpoints" count={list?.length}>
        No endpoints yet.
      </ListStatus>
      {list && list.length > 0 ? (
        <TableScroll label="Event endpoints">
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Health</th>
                <th scope="col">Created</th>
                {canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {list.map((endpoint) => (
                <tr key={endpoint.id}>
                  <th scope="row" className="anywhere">
                    <a href={`/app/settings/events/${endpoint.id}`} onClick={followLink}>
                      {endpoint.url}
                    </a>
                    {endpoint.description ? (
                      <span className="muted endpoint-description">{endpoint.description}</span>
                    ) : null}
                  </th>
                  <td>{describeEvents(endpoint.events)}</td>
                  <td>
                    <Badge tone={endpoint.status === "enabled" ? "ok" : "off"}>
                      {endpoint.status === "enabled" ? "Enabled" : "Disabled"}
                    </Badge>
                  </td>
                  <td>
                    <HealthNote health={endpoint.health} />
                  </td>
                  <td>
                    <When iso={endpoint.createdAt} />
                  </td>
                  {canChange ? (
                    <td className="row-actions">
                      <SendTest id={endpoint.id} url={endpoint.url} />
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setDeleting(endpoint)}
                      >
                        Delete<span className="visually-hidden"> {endpoint.url}</span>
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <AddEndpoint open={adding} onClose={() => setAdding(false)} />
      <DeleteEndpoint endpoint={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
