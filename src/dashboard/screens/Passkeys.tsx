/**
 * Settings › Your passkeys (docs/dashboard.md#passkeys): the signed-in member's passkeys; add one
 * (the browser's WebAuthn dialog through `@simplewebauthn/browser`), delete one, and sign out
 * everywhere (every session of this member ends, this one too).
 */
import { startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote, ListStatus, When } from "../ui/feedback";
import { TableScroll } from "../ui/TableScroll";

export function Passkeys() {
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: ["passkeys"],
    queryFn: () => unwrap(api.GET("/v1/manage/passkeys")),
  });
  const [deleting, setDeleting] = useState<Schemas["Passkey"] | null>(null);
  const add = useMutation({
    mutationFn: async (name: string) => {
      const ceremony = await unwrap(api.POST("/v1/manage/passkeys/options"));
      const response = await startRegistration({ optionsJSON: ceremony.options as never });
      return unwrap(
        api.POST("/v1/manage/passkeys", {
          body: {
            challengeId: ceremony.challengeId,
            name,
            response: response as unknown as Record<string, unknown>,
          },
        }),
      );
    },
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["passkeys"] }),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE("/v1/manage/passkeys/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      void queries.invalidateQueries({ queryKey: ["passkeys"] });
    },
  });
  const everywhere = useMutation({
    mutationFn: () => unwrap(api.DELETE("/v1/manage/sessions")),
    onSuccess: () => window.location.assign("/sign-in"),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    add.mutate(name || "Passkey");
  };
  return (
    <section aria-labelledby="passkeys-title">
      <p className="breadcrumb">Settings</p>
      <h1 id="passkeys-title" tabIndex={-1}>
        Your passkeys
      </h1>
      <p className="muted">
        A passkey signs you in on this device (or your phone) without a link or a password.
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="passkey-name">Name</label>
        <input id="passkey-name" name="name" maxLength={100} placeholder="This laptop" />
        <button type="submit" className="primary" disabled={add.isPending}>
          Add a passkey
        </button>
      </form>
      <p role="status">{add.isSuccess ? "Passkey added." : ""}</p>
      {add.isError ? (
        add.error instanceof DOMException && add.error.name === "NotAllowedError" ? (
          <p className="muted" role="status">
            No passkey was added.
          </p>
        ) : (
          <ErrorNote error={add.error} />
        )
      ) : null}
      <ListStatus query={list} what="passkeys" count={list.data?.data.length}>
        No passkeys yet.
      </ListStatus>
      {list.data && list.data.data.length > 0 ? (
        <TableScroll label="Passkeys">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((passkey) => (
                <tr key={passkey.id}>
                  <th scope="row">{passkey.name}</th>
                  <td>
                    <When iso={passkey.createdAt} />
                  </td>
                  <td>
                    <When iso={passkey.lastUsedAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        remove.reset();
                        setDeleting(passkey);
                      }}
                    >
                      Delete<span className="visually-hidden"> {passkey.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <h2>Sessions</h2>
      <p className="muted">Signed in somewhere you no longer use? End every session of yours.</p>
      <button type="button" onClick={() => everywhere.mutate()} disabled={everywhere.isPending}>
        Sign out everywhere
      </button>
      {everywhere.isError ? <ErrorNote error={everywhere.error} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this passkey?"
        confirmLabel="Delete passkey"
        pending={remove.isPending}
        error={remove.isError ? remove.error : null}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        <p>
          <strong>{deleting?.name}</strong> will no longer sign you in. Remove it from your device's
          passkey list too.
        </p>
      </ConfirmDialog>
    </section>
  );
}
