/**
 * The Secrets screen's dialogs (docs/dashboard.md#screens): set or replace a value, and delete a
 * secret after confirming. A value goes from a password field straight into the request and is
 * dropped with the dialog: nothing keeps it for showing again.
 */
import { useId, useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { SECRET_NAME_PATTERN, SECRET_NAME_RULE } from "../secret-name";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { FormDialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { Field } from "../ui/Field";
import { useFormProblems } from "../ui/form-problems";
import type { PlacedProblem } from "../ui/problem-text";

/** The fields an API refusal is placed on (the name is the path's, the value the body's). */
const LABELS = { name: { label: "Name" }, value: { label: "Value" } };

/** What the API would refuse in a secret, said before it is sent: each on its field. */
function secretProblems(name: string, value: string): PlacedProblem[] {
  const problems: PlacedProblem[] = [];
  const say = (field: string, message: string) => problems.push({ field, path: field, message });
  if (name === "") say("name", "Enter a name.");
  else if (!new RegExp(`^${SECRET_NAME_PATTERN}$`).test(name))
    say("name", `Use ${SECRET_NAME_RULE.charAt(0).toLowerCase()}${SECRET_NAME_RULE.slice(1)}`);
  if (value === "") say("value", "Enter a value.");
  return problems;
}

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
  const replacesId = useId();
  const [typed, setTyped] = useState("");
  const form = useFormProblems(LABELS);
  const dialog = useDialogMutation(
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
      invalidates: ["secrets"],
      onSuccess: (_, input) => props.onSaved(input.name),
      closes: true,
      form,
    },
    () => {
      setTyped("");
      props.onClose();
    },
  );
  const fixed = props.name !== null && props.name !== "";
  const name = fixed ? (props.name as string) : typed;
  const replaces = !fixed && props.existing.includes(typed);
  return (
    <FormDialog
      open={props.name !== null}
      title={fixed ? `Replace the value of ${name}` : "Set a secret"}
      onClose={dialog.close}
      confirm={fixed || replaces ? "Replace value" : "Save secret"}
      mutation={dialog.state}
      onSubmit={(data) => {
        const value = String(data.get("value") ?? "");
        const found = secretProblems(name, value);
        form.refuse(found);
        if (found.length === 0) dialog.mutation.mutate({ name, value });
      }}
      noValidate
    >
      {form.top}
      <Field
        label="Name"
        hint={SECRET_NAME_RULE}
        describedBy={replaces ? replacesId : undefined}
        error={form.at("name")}
      >
        {(control) => (
          <input
            {...control}
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
          />
        )}
      </Field>
      {replaces ? (
        <p id={replacesId} className="warning">
          A secret named {typed} exists: saving replaces its value.
        </p>
      ) : null}
      <Field
        label="Value"
        error={form.at("value")}
        hint="It is stored encrypted and never shown again. Workflows use the new value from their next run."
      >
        {(control) => (
          <input
            {...control}
            name="value"
            type="password"
            required
            maxLength={16_384}
            autoComplete="off"
          />
        )}
      </Field>
    </FormDialog>
  );
}

/** Confirms deleting `secret` (closed when null); `DELETE /v1/manage/secrets/{name}`. */
export function DeleteSecret(props: {
  secret: Schemas["Secret"] | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const { mutation: remove, close } = useDialogMutation(
    {
      mutationFn: ({ name }: Schemas["Secret"]) =>
        unwrap(api.DELETE("/v1/manage/secrets/{name}", { params: { path: { name } } })),
      invalidates: ["secrets"],
      onSuccess: (_, { name }) => props.onDeleted(name),
      closes: true,
    },
    props.onClose,
  );
  const secret = props.secret;
  return (
    <ConfirmDialog
      subject={secret}
      title="Delete this secret?"
      confirmLabel={`Delete ${secret?.name ?? ""}`}
      mutation={remove}
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
