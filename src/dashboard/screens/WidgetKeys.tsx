/**
 * Settings > API access > Widget keys (docs/security.md#widget-keys, docs/dashboard.md#screens): the keys with their
 * prefix, agents, expiry and creator; Owners and Admins create one (shown once, with a copy
 * button and a warning) and revoke one after confirming.
 */
import { useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { useAgents, useMembers, useWidgetKeys } from "../queries";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ShownOnce } from "../ui/CopyField";
import { DataTable, RowAction } from "../ui/DataTable";
import { FormDialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { Field } from "../ui/Field";
import { Problems, When } from "../ui/feedback";
import { useFormProblems } from "../ui/form-problems";
import type { FieldLabels } from "../ui/problem-text";
import { Screen } from "../ui/Screen";

type Key = Schemas["WidgetKey"];

/** The widget keys screen; `canChange` shows the controls of Owners and Admins. */
export function WidgetKeys({ canChange }: { canChange: boolean }) {
  const keys = useWidgetKeys();
  const agents = useAgents();
  const members = useMembers();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const agentName = (id: string) => agents.data?.data.find((agent) => agent.id === id)?.name ?? id;
  const memberName = (id: string) =>
    members.data
      ? (members.data.data.find((member) => member.id === id)?.name ?? "a former member")
      : "…";

  return (
    <Screen
      title="Widget keys"
      breadcrumb="Settings › API access"
      intro="Your server uses a widget key to create personal conversation links. Keep keys on servers only."
      action={canChange && { label: "Create widget key", onClick: () => setCreating(true) }}
    >
      <DataTable
        list={{ query: keys, what: "widget keys", empty: "No keys yet." }}
        columns={[
          { label: "Name", cell: (key) => key.name },
          { label: "Key", cell: (key) => <code>{key.keyPrefix}…</code> },
          {
            label: "Agents",
            cell: (key) => (key.flowIds ? key.flowIds.map(agentName).join(", ") : "All agents"),
          },
          {
            label: "Expires",
            cell: (key) => (key.expiresAt ? <When iso={key.expiresAt} /> : "Never"),
          },
          { label: "Created by", cell: (key) => memberName(key.createdBy) },
          { label: "Created", when: (key) => key.createdAt },
          {
            label: "Last used",
            cell: (key) => (key.lastUsedAt ? <When iso={key.lastUsedAt} /> : "Never"),
          },
        ]}
        actions={
          canChange &&
          ((key) => (
            <RowAction target={key.name} danger onClick={() => setRevoking(key)}>
              Revoke
            </RowAction>
          ))
        }
      />
      <CreateKey
        open={creating}
        onClose={() => setCreating(false)}
        agents={agents.data?.data ?? []}
      />
      <RevokeKey widgetKey={revoking} onClose={() => setRevoking(null)} />
    </Screen>
  );
}

/** The fields of a new key an API refusal is placed on. */
const KEY_LABELS: FieldLabels = {
  name: { label: "Name" },
  flowIds: { label: "Agents", kind: "choice" },
  expiresAt: { label: "Expiry date" },
};

/** "Create widget key": a name, the agents it may serve and an expiry; then the key, once. */
function CreateKey(props: { open: boolean; onClose: () => void; agents: Schemas["Agent"][] }) {
  const form = useFormProblems(KEY_LABELS);
  const dialog = useDialogMutation(
    {
      mutationFn: (body: Schemas["CreateWidgetKey"]) =>
        unwrap(api.POST("/v1/manage/widget-keys", { body })),
      invalidates: ["widget-keys"],
      form,
    },
    props.onClose,
  );
  const created = dialog.answer;
  const submit = (data: FormData) => {
    const flowIds = data.getAll("flowIds").map(String);
    const expires = String(data.get("expiresAt") ?? "");
    dialog.mutation.mutate({
      name: String(data.get("name") ?? ""),
      ...(flowIds.length > 0 ? { flowIds } : {}),
      ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}),
    });
  };
  return (
    <FormDialog
      open={props.open}
      title={created ? "Copy your widget key now" : "Create a widget key"}
      onClose={dialog.close}
      confirm="Create key"
      mutation={dialog.state}
      onSubmit={submit}
      done={
        created ? (
          <ShownOnce
            warning="This is the only time the key is shown. Store it on your server now; if it is lost, revoke it and create another."
            label={`Widget key “${created.name}”`}
            what="key"
            region="Your new widget key, shown once"
            value={created.key}
            onDone={dialog.close}
          />
        ) : null
      }
    >
      {form.top}
      <Field label="Name" error={form.at("name")}>
        {(control) => (
          <input {...control} name="name" required maxLength={200} autoComplete="off" />
        )}
      </Field>
      <fieldset>
        <legend>Agents it may create links for (none checked: every agent)</legend>
        <Problems problems={form.at("flowIds")} />
        {props.agents.map((agent) => (
          <label key={agent.id} className="check">
            <input type="checkbox" name="flowIds" value={agent.id} /> {agent.name}
          </label>
        ))}
      </fieldset>
      <Field label="Expires (optional)" error={form.at("expiresAt")}>
        {(control) => <input {...control} name="expiresAt" type="date" />}
      </Field>
    </FormDialog>
  );
}

/** "Revoke": asks, then DELETE /v1/manage/widget-keys/{id}. */
function RevokeKey(props: { widgetKey: Key | null; onClose: () => void }) {
  const { mutation: revoke, close } = useDialogMutation(
    {
      mutationFn: ({ id }: Key) =>
        unwrap(api.DELETE("/v1/manage/widget-keys/{id}", { params: { path: { id } } })),
      invalidates: ["widget-keys"],
      closes: true,
    },
    props.onClose,
  );
  const key = props.widgetKey;
  return (
    <ConfirmDialog
      subject={key}
      title="Revoke this widget key?"
      confirmLabel="Revoke key"
      mutation={revoke}
      onClose={close}
    >
      <p>
        Servers using <strong>{key?.name}</strong> (<code>{key?.keyPrefix}…</code>) can no longer
        create, look up or revoke links, from this moment. Links already created keep working.
      </p>
    </ConfirmDialog>
  );
}
