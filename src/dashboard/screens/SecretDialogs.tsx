/**
 * The Secrets screen's dialogs (docs/dashboard.md#screens): set or replace a value, and delete a
 * secret after confirming. A value goes from a password field straight into the request and is
 * dropped with the dialog: nothing keeps it for showing again.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { SECRET_NAME_PATTERN, SECRET_NAME_RULE } from "../secret-name";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { ErrorNote } from "../ui/feedback";

/**
 * "Set a secret" (`name` is `""`) or "Replace the value of NAME" (the name fixed), closed when
 * `name` is null; `PUT /v1/manage/secrets/{name}`. Typing the name of an existing secret says its
 * value will be replaced. `onSaved` gets the name once stored.
 */
export function SetSecret(props: {
  name: string | null;
  existing: string[];
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const queries = useQueryClient();
  const ids = { name: useId(), rule: useId(), value: useId(), replaces: useId() };
  const [typed, setTyped] = useState("");
  const { mutation: save, close } = useDialogMutation(
    {
      mutationFn: (input: { name: string; value: string }) =>
        unwrap(
          api.PUT("/v1/manage/secrets/{name}", {
            params: { path: { name: input.name } },
            body: { value: input.value },
          }),
        ),
      // The mutation's variables hold the value: keep them no longer than the dialog.
      gcTime: 0,
      onSuccess: (_, input) => {
        void queries.invalidateQueries({ queryKey: ["secrets"] });
        props.onSaved(input.name);
        close();
      },
    },
    () => {
      setTyped("");
      props.onClose();
    },
  );
  const fixed = props.name !== null && props.name !== "";
  const name = fixed ? (props.name as string) : typed;
  const replaces = !fixed && props.existing.includes(typed);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("value") ?? "");
    save.mutate({ name, value });
  };
  return (
    <Dialog
      open={props.name !== null}
      title={fixed ? `Replace the value of ${name}` : "Set a secret"}
      onClose={close}
    >
      <form className="stack" onSubmit={submit}>
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          name="name"
          required
          readOnly={fixed}
          value={name}
          onChange={(event) => setTyped(event.currentTarget.value)}
          pattern={SECRET_NAME_PATTERN}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          className="secret"
          aria-describedby={replaces ? `${ids.rule} ${ids.replaces}` : ids.rule}
        />
        <p id={ids.rule} className="muted hint">
          {SECRET_NAME_RULE}
        </p>
        {replaces ? (
          <p id={ids.replaces} className="warning">
            A secret named {typed} exists: saving replaces its value.
          </p>
        ) : null}
        <label htmlFor={ids.value}>Value</label>
        <input
          id={ids.value}
          name="value"
          type="password"
          required
          maxLength={16_384}
          autoComplete="off"
        />
        <p className="muted hint">
          It is stored encrypted and never shown again. Workflows use the new value from their next
          run.
        </p>
        {save.isError ? <ErrorNote error={save.error} /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {fixed || replaces ? "Replace value" : "Save secret"}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Confirms deleting `secret` (closed when null); `DELETE /v1/manage/secrets/{name}`. */
export function DeleteSecret(props: {
  secret: Schemas["Secret"] | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const queries = useQueryClient();
  const { mutation: remove, close } = useDialogMutation(
    {
      mutationFn: (name: string) =>
        unwrap(api.DELETE("/v1/manage/secrets/{name}", { params: { path: { name } } })),
      onSuccess: (_, name) => {
        void queries.invalidateQueries({ queryKey: ["secrets"] });
        props.onDeleted(name);
        close();
      },
    },
    props.onClose,
  );
  const secret = props.secret;
  return (
    <ConfirmDialog
      open={secret !== null}
      title="Delete this secret?"
      confirmLabel={`Delete ${secret?.name ?? ""}`}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => secret && remove.mutate(secret.name)}
      onClose={close}
    >
      <p>
        From now on, <code>{`{{secrets.${secret?.name}}}`}</code> is empty in every workflow, and a
        webhook verified with <code>{secret?.name}</code> refuses every call until the secret is set
        again. The value cannot be recovered.
      </p>
    </ConfirmDialog>
  );
}
