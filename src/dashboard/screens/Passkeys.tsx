/**
 * Settings › Your passkeys (docs/dashboard.md#passkeys): the signed-in member's passkeys; add one
 * (the browser's WebAuthn dialog through `@simplewebauthn/browser`), delete one, and sign out
 * everywhere (every session of this member ends, this one too).
 */
import { startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, readAll, type Schemas, unwrap } from "../api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { DataTable, RowAction } from "../ui/DataTable";
import { Field } from "../ui/Field";
import { ErrorNote } from "../ui/feedback";
import { useFormProblems } from "../ui/form-problems";
import { Screen } from "../ui/Screen";

/** The passkeys screen, the same for every role: each member's own passkeys and sessions. */
export function Passkeys() {
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: ["passkeys"],
    queryFn: () =>
      readAll((query) => unwrap(api.GET("/v1/manage/passkeys", { params: { query } }))),
  });
  const [deleting, setDeleting] = useState<Schemas["Passkey"] | null>(null);
  const form = useFormProblems({ name: { label: "Name" } });
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
    onError: form.refuseError,
  });
  const remove = useMutation({
    mutationFn: ({ id }: Schemas["Passkey"]) =>
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
    <Screen
      title="Your passkeys"
      breadcrumb="Settings"
      intro="A passkey signs you in on this device (or your phone) without a link or a password."
    >
      <form className="inline-form" onSubmit={submit}>
        {form.top}
        <Field label="Name" error={form.at("name")}>
          {(control) => (
            <input {...control} name="name" maxLength={100} placeholder="This laptop" />
          )}
        </Field>
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
        ) : form.shown(add.error) ? (
          <ErrorNote error={add.error} />
        ) : null
      ) : null}
      <DataTable
        list={{ query: list, what: "passkeys", empty: "No passkeys yet." }}
        columns={[
          { label: "Name", cell: (passkey) => passkey.name },
          { label: "Added", when: (passkey) => passkey.createdAt },
          { label: "Last used", when: (passkey) => passkey.lastUsedAt },
        ]}
        actions={(passkey) => (
          <RowAction
            target={passkey.name}
            danger
            onClick={() => {
              remove.reset();
              setDeleting(passkey);
            }}
          >
            Delete
          </RowAction>
        )}
      />
      <h2>Sessions</h2>
      <p className="muted">Signed in somewhere you no longer use? End every session of yours.</p>
      <button type="button" onClick={() => everywhere.mutate()} disabled={everywhere.isPending}>
        Sign out everywhere
      </button>
      {everywhere.isError ? <ErrorNote error={everywhere.error} /> : null}
      <ConfirmDialog
        subject={deleting}
        title="Delete this passkey?"
        confirmLabel="Delete passkey"
        mutation={remove}
        onClose={() => setDeleting(null)}
      >
        <p>
          <strong>{deleting?.name}</strong> will no longer sign you in. Remove it from your device's
          passkey list too.
        </p>
      </ConfirmDialog>
    </Screen>
  );
}
