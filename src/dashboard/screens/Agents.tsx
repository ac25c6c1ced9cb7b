/**
 * Agents (docs/dashboard.md#screens): the workspace's agents with their mode and parameters;
 * Owners and Admins create and edit them (`AgentEditor`); everyone sees their channels' snippets.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ListStatus, Loading, When } from "../ui/feedback";
import { TableScroll } from "../ui/TableScroll";
import { Channels } from "./Channels";

type Agent = Schemas["Agent"];

const AgentEditor = lazy(async () => ({ default: (await import("./AgentEditor")).AgentEditor }));

export function Agents({ canChange }: { canChange: boolean }) {
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => unwrap(api.GET("/v1/manage/agents")),
  });
  const [editing, setEditingState] = useState<Agent | "new" | null>(null);
  const [openings, setOpenings] = useState(0);
  const setEditing = (next: Agent | "new" | null) => {
    if (next !== null) setOpenings((count) => count + 1);
    setEditingState(next);
  };
  const [channelsOf, setChannelsOf] = useState<Agent | null>(null);
  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title" tabIndex={-1}>
        Agents
      </h1>
      {canChange ? (
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          New agent
        </button>
      ) : null}
      <ListStatus query={agents} what="agents" count={agents.data?.data.length}>
        No agents yet.
      </ListStatus>
      {agents.data && agents.data.data.length > 0 ? (
        <TableScroll label="Agents">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Mode</th>
                <th scope="col">Initial parameters</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {agents.data.data.map((agent) => (
                <tr key={agent.id}>
                  <th scope="row">{agent.name}</th>
                  <td>{agent.mode === "initiator" ? "Initiator" : "Responder"}</td>
                  <td>
                    {agent.parameters.length === 0
                      ? "None"
                      : agent.parameters.map((parameter) => parameter.name).join(", ")}
                  </td>
                  <td>
                    <When iso={agent.createdAt} />
                  </td>
                  <td className="row-actions">
                    {canChange ? (
                      <button type="button" onClick={() => setEditing(agent)}>
                        Edit<span className="visually-hidden"> {agent.name}</span>
                      </button>
                    ) : null}
                    <button type="button" onClick={() => setChannelsOf(agent)}>
                      Channels<span className="visually-hidden"> of {agent.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {/* Loaded at the first opening (it carries the API's zod schemas, most of the bundle),
          then kept mounted, so closing gives focus back; a new key per opening resets it. */}
      {openings > 0 ? (
        <Suspense fallback={<Loading what="the editor" />}>
          <AgentEditor
            key={openings}
            open={editing !== null}
            agent={editing === "new" || editing === null ? null : editing}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      ) : null}
      <Channels agent={channelsOf} canChange={canChange} onClose={() => setChannelsOf(null)} />
    </section>
  );
}
