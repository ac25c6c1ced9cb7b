/**
 * Settings > API access > Widget keys (spec 5, docs/dashboard.md#screens): the keys with their
 * prefix, agents, expiry and creator; Owners and Admins create one (shown once, with a copy
 * button and a warning) and revoke one after confirming.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { CopyField } from "../ui/CopyField";
import { Dialog } from "../ui/Dialog";
import { ErrorNote, ListStatus, When } from "../ui/feedback";
import { TableScroll } from "../ui/TableScroll";

type Key = Schemas["WidgetKey"];

export function WidgetKeys({ canChange }: { canChange: boolean }) {
  const keys = useQuery({
    queryKey: ["widget-keys"],
    queryFn: () => unwrap(api.GET("/v1/manage/widget-keys")),
  });
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => unwrap(api.GET("/v1/manage/agents")),
  });
  const members = useQuery({
    queryKey: ["members"],
    queryFn: () => unwrap(api.GET("/v1/manage/members")),
  });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const agentName = (id: string) => agents.data?.data.find((agent) => agent.id === id)?.name ?? id;
  const memberName = (id: string) =>
    members.data
      ? (members.data.data.find((member) => member.id === id)?.name ?? "a former member")
      : "…";

  return (
    <section aria-labelledby="keys-title">
      <p className="breadcrumb">Settings › API access</p>
      <h1 id="keys-title" tabIndex={-1}>
        Widget keys
      </h1>
      <p className="muted">
        Your server uses a widget key to create personal conversation links. Keep keys on servers
        only.
      </p>
      {canChange ? (
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          Create widget key
        </button>
      ) : null}
      <ListStatus query={keys} what="widget keys" count={keys.data?.data.length}>
        No keys yet.
      </ListStatus>
      {keys.data && keys.data.data.length > 0 ? (
        <TableScroll label="Widget keys">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Agents</th>
                <th scope="col">Expires</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                {canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <code>{key.keyPrefix}…</code>
                  </td>
                  <td>{key.flowIds ? key.flowIds.map(agentName).join(", ") : "All agents"}</td>
                  <td>{key.expiresAt ? <When iso={key.expiresAt} /> : "Never"}</td>
                  <td>{memberName(key.createdBy)}</td>
                  <td>
                    <When iso={key.createdAt} />
                  </td>
                  <td>{key.lastUsedAt ? <When iso={key.lastUsedAt} /> : "Never"}</td>
                  {canChange ? (
                    <td>
                      <button type="button" className="danger" onClick={() => setRevoking(key)}>
                        Revoke<span className="visually-hidden"> {key.name}</span>
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <CreateKey
        open={creating}
        onClose={() => setCreating(false)}
        agents={agents.data?.data ?? []}
      />
      <RevokeKey widgetKey={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

function CreateKey(props: { open: boolean; onClose: () => void; agents: Schemas["Agent"][] }) {
  const queries = useQueryClient();
  const [created, setCreated] = useState<Schemas["CreatedWidgetKey"] | null>(null);
  const create = useMutation({
    mutationFn: (body: Schemas["CreateWidgetKey"]) =>
      unwrap(api.POST("/v1/manage/widget-keys", { body })),
    onSuccess: (key) => {
      setCreated(key);
      void queries.invalidateQueries({ queryKey: ["widget-keys"] });
    },
  });
  const close = () => {
    setCreated(null);
    create.reset();
    props.onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const flowIds = form.getAll("flowIds").map(String);
    const expires = String(form.get("expiresAt") ?? "");
    create.mutate({
      name: String(form.get("name") ?? ""),
      ...(flowIds.length > 0 ? { flowIds } : {}),
      ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}),
    });
  };
  return (
    <Dialog
      open={props.open}
      title={created ? "Copy your widget key now" : "Create a widget key"}
      onClose={close}
    >
      {created ? (
        <div className="stack">
          <p className="warning" role="alert">
            This is the only time the key is shown. Store it on your server now; if it is lost,
            revoke it and create another.
          </p>
          <CopyField label={`Widget key “${created.name}”`} what="key" value={created.key} />
          <div className="actions">
            <button type="button" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="stack" onSubmit={submit}>
          <label htmlFor="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={200} autoComplete="off" />
          <fieldset>
            <legend>Agents it may create links for (none checked: every agent)</legend>
            {props.agents.map((agent) => (
              <label key={agent.id} className="check">
                <input type="checkbox" name="flowIds" value={agent.id} /> {agent.name}
              </label>
            ))}
          </fieldset>
          <label htmlFor="key-expiry">Expires (optional)</label>
          <input id="key-expiry" name="expiresAt" type="date" />
          {create.isError ? <ErrorNote error={create.error} /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={create.isPending}>
              Create key
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RevokeKey(props: { widgetKey: Key | null; onClose: () => void }) {
  const queries = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE("/v1/manage/widget-keys/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["widget-keys"] });
      close();
    },
  });
  const close = () => {
    revoke.reset();
    props.onClose();
  };
  const key = props.widgetKey;
  return (
    <ConfirmDialog
      open={key !== null}
      title="Revoke this widget key?"
      confirmLabel="Revoke key"
      pending={revoke.isPending}
      error={revoke.isError ? revoke.error : null}
      onConfirm={() => key && revoke.mutate(key.id)}
      onClose={close}
    >
      <p>
        Servers using <strong>{key?.name}</strong> (<code>{key?.keyPrefix}…</code>) can no longer
        create, look up or revoke links, from this moment. Links already created keep working.
      </p>
    </ConfirmDialog>
  );
}
