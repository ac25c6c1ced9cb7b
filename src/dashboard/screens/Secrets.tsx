/**
 * Settings > Secrets (issue 14 screen 6, docs/dashboard.md#screens): the workspace secrets that
 * workflows read as `{{secrets.NAME}}`, by name with when each was created and last set, never a
 * value (the API has none to give). Owners and Admins set a new one, replace a value (same
 * dialog, name fixed) and delete one after confirming; members see the list only.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, readAll, type Schemas, unwrap } from "../api";
import { DataTable, RowAction } from "../ui/DataTable";
import { Screen } from "../ui/Screen";
import { DeleteSecret, SetSecret } from "./SecretDialogs";

type Secret = Schemas["Secret"];

/** The secrets screen; `canChange` shows the controls of Owners and Admins. */
export function Secrets({ canChange }: { canChange: boolean }) {
  const secrets = useQuery({
    queryKey: ["secrets"],
    queryFn: () => readAll((query) => unwrap(api.GET("/v1/manage/secrets", { params: { query } }))),
  });
  // `null`: closed; `""`: a new secret; a name: replacing that secret's value.
  const [setting, setSetting] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const [done, setDone] = useState("");
  const names = secrets.data?.data.map((secret) => secret.name) ?? [];

  return (
    <Screen
      title="Secrets"
      breadcrumb="Settings"
      intro={
        <>
          Workflows read a secret as <code>{"{{secrets.NAME}}"}</code>. Values are stored encrypted
          and never shown again, here or in the API.
        </>
      }
      action={canChange && { label: "Set a secret", onClick: () => setSetting("") }}
    >
      <p role="status" className="muted">
        {done}
      </p>
      <DataTable
        list={{ query: secrets, what: "secrets", empty: "No secrets yet." }}
        rowKey={(secret) => secret.name}
        columns={[
          { label: "Name", cell: (secret) => <code>{secret.name}</code> },
          { label: "Value last set", when: (secret) => secret.updatedAt },
          { label: "Created", when: (secret) => secret.createdAt },
        ]}
        actionsClass="row-actions"
        actions={
          canChange &&
          ((secret) => (
            <>
              <RowAction target={`of ${secret.name}`} onClick={() => setSetting(secret.name)}>
                Replace value
              </RowAction>
              <RowAction target={secret.name} danger onClick={() => setDeleting(secret)}>
                Delete
              </RowAction>
            </>
          ))
        }
      />
      <SetSecret
        name={setting}
        existing={names}
        onClose={() => setSetting(null)}
        onSaved={(name) => setDone(`Secret ${name} saved.`)}
      />
      <DeleteSecret
        secret={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(name) => setDone(`Secret ${name} deleted.`)}
      />
    </Screen>
  );
}
