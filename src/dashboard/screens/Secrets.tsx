/**
 * Settings > Secrets (issue 14 screen 6, docs/dashboard.md#screens): the workspace secrets that
 * workflows read as `{{secrets.NAME}}`, by name with when each was created and last set, never a
 * value (the API has none to give). Owners and Admins set a new one, replace a value (same
 * dialog, name fixed) and delete one after confirming; members see the list only.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ListStatus, When } from "../ui/feedback";
import { TableScroll } from "../ui/TableScroll";
import { DeleteSecret, SetSecret } from "./SecretDialogs";

type Secret = Schemas["Secret"];

/** The secrets screen; `canChange` shows the controls of Owners and Admins. */
export function Secrets({ canChange }: { canChange: boolean }) {
  const secrets = useQuery({
    queryKey: ["secrets"],
    queryFn: () => unwrap(api.GET("/v1/manage/secrets")),
  });
  // `null`: closed; `""`: a new secret; a name: replacing that secret's value.
  const [setting, setSetting] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const [done, setDone] = useState("");
  const names = secrets.data?.data.map((secret) => secret.name) ?? [];

  return (
    <section aria-labelledby="secrets-title">
      <p className="breadcrumb">Settings</p>
      <h1 id="secrets-title" tabIndex={-1}>
        Secrets
      </h1>
      <p className="muted">
        Workflows read a secret as <code>{"{{secrets.NAME}}"}</code>. Values are stored encrypted
        and never shown again, here or in the API.
      </p>
      {canChange ? (
        <button type="button" className="primary" onClick={() => setSetting("")}>
          Set a secret
        </button>
      ) : null}
      <p role="status" className="muted">
        {done}
      </p>
      <ListStatus query={secrets} what="secrets" count={secrets.data?.data.length}>
        No secrets yet.
      </ListStatus>
      {secrets.data && secrets.data.data.length > 0 ? (
        <TableScroll label="Secrets">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value last set</th>
                <th scope="col">Created</th>
                {canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {secrets.data.data.map((secret) => (
                <tr key={secret.name}>
                  <th scope="row">
                    <code>{secret.name}</code>
                  </th>
                  <td>
                    <When iso={secret.updatedAt} />
                  </td>
                  <td>
                    <When iso={secret.createdAt} />
                  </td>
                  {canChange ? (
                    <td className="row-actions">
                      <button type="button" onClick={() => setSetting(secret.name)}>
                        Replace value<span className="visually-hidden"> of {secret.name}</span>
                      </button>
                      <button type="button" className="danger" onClick={() => setDeleting(secret)}>
                        Delete<span className="visually-hidden"> {secret.name}</span>
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
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
    </section>
  );
}
