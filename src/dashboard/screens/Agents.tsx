/**
 * Agents (docs/dashboard.md#screens): the workspace's agents with their mode and parameters;
 * Owners and Admins create and edit them (`AgentEditor`); everyone sees their channels' snippets.
 */
import { lazy, Suspense, useState } from "react";
import type { Schemas } from "../api";
import { useAgents } from "../queries";
import { DataTable, RowAction } from "../ui/DataTable";
import { Loading } from "../ui/feedback";
import { Screen } from "../ui/Screen";
import { Channels } from "./Channels";

type Agent = Schemas["Agent"];

const AgentEditor = lazy(async () => ({ default: (await import("./AgentEditor")).AgentEditor }));

/** The agents screen; `canChange` shows the controls of Owners and Admins. */
export function Agents({ canChange }: { canChange: boolean }) {
  const agents = useAgents();
  const [editing, setEditingState] = useState<Agent | "new" | null>(null);
  const [openings, setOpenings] = useState(0);
  const setEditing = (next: Agent | "new" | null) => {
    if (next !== null) setOpenings((count) => count + 1);
    setEditingState(next);
  };
  const [channelsOf, setChannelsOf] = useState<Agent | null>(null);
  return (
    <Screen
      title="Agents"
      action={canChange && { label: "New agent", onClick: () => setEditing("new") }}
    >
      <DataTable
        list={{ query: agents, what: "agents", empty: "No agents yet." }}
        columns={[
          { label: "Name", cell: (agent) => agent.name },
          {
            label: "Mode",
            cell: (agent) => (agent.mode === "initiator" ? "Initiator" : "Responder"),
          },
          {
            label: "Initial parameters",
            cell: (agent) =>
              agent.parameters.length === 0
                ? "None"
                : agent.parameters.map((parameter) => parameter.name).join(", "),
          },
          { label: "Created", when: (agent) => agent.createdAt },
        ]}
        actionsClass="row-actions"
        actions={(agent) => (
          <>
            {canChange ? (
              <RowAction target={agent.name} onClick={() => setEditing(agent)}>
                Edit
              </RowAction>
            ) : null}
            <RowAction target={`of ${agent.name}`} onClick={() => setChannelsOf(agent)}>
              Channels
            </RowAction>
          </>
        )}
      />
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
    </Screen>
  );
}
