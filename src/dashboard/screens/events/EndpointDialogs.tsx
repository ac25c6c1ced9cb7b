/**
 * The Events screens' dialogs (docs/dashboard.md#screens): add an endpoint (its signing secret
 * shown once, with a copy button and a warning), rotate a secret (the new one shown once), and
 * delete an endpoint after confirming.
 */
import { useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { ShownOnce } from "../../ui/CopyField";
import { Dialog, FormDialog } from "../../ui/Dialog";
import { useDialogMutation } from "../../ui/dialog-mutation";
import { Field } from "../../ui/Field";
import { Problems } from "../../ui/feedback";
import { useFormProblems } from "../../ui/form-problems";
import type { FieldLabels } from "../../ui/problem-text";
import { EVENT_TYPES } from "./event-types";

type Endpoint = Schemas["EventEndpoint"];

/** The fields of "Add endpoint" an API refusal is placed on. */
const ENDPOINT_LABELS: FieldLabels = {
  url: { label: "URL" },
  description: { label: "Description" },
  events: { label: "Events", kind: "choice" },
};
type WithSecret = Schemas["EventEndpointWithSecret"];

/** The secret of `endpoint`, shown once: a warning, the field and its copy button, and Done. */
function SecretOnce(props: { endpoint: WithSecret; onDone: () => void }) {
  return (
    <ShownOnce
      warning="This is the only time the signing secret is shown. Store it with your server now; if it is lost, rotate it."
      label={`Signing secret for ${props.endpoint.url}`}
      what="secret"
      region="Your new signing secret, shown once"
      value={props.endpoint.secret}
      onDone={props.onDone}
    />
  );
}

/**
 * "Add endpoint": a URL and the event types (none checked: every type, as the API defaults),
 * POST /v1/manage/event-endpoints, then the secret once (docs/events.md#event-endpoints).
 */
export function AddEndpoint(props: { open: boolean; onClose: () => void }) {
  const form = useFormProblems(ENDPOINT_LABELS);
  const dialog = useDialogMutation(
    {
      mutationFn: (body: Schemas["CreateEventEndpoint"]) =>
        unwrap(api.POST("/v1/manage/event-endpoints", { body })),
      invalidates: ["event-endpoints"],
      form,
    },
    props.onClose,
  );
  const created = dialog.answer;
  const submit = (form: FormData) => {
    const chosen = new Set(form.getAll("events").map(String));
    const events = EVENT_TYPES.map(({ type }) => type).filter((type) => chosen.has(type));
    const description = String(form.get("description") ?? "").trim();
    dialog.mutation.mutate({
      url: String(form.get("url") ?? "").trim(),
      ...(events.length > 0 ? { events } : {}),
      ...(description ? { description } : {}),
    });
  };
  return (
    <FormDialog
      open={props.open}
      title={created ? "Copy the signing secret now" : "Add an event endpoint"}
      onClose={dialog.close}
      confirm="Add endpoint"
      mutation={dialog.state}
      onSubmit={submit}
      done={created ? <SecretOnce endpoint={created} onDone={dialog.close} /> : null}
    >
      {form.top}
      <Field
        label="URL"
        hint="An https address of your server. Events are POSTed to it, signed."
        error={form.at("url")}
      >
        {(control) => (
          <input {...control} name="url" type="url" required maxLength={2048} autoComplete="off" />
        )}
      </Field>
      <Field label="Description (optional)" error={form.at("description")}>
        {(control) => <input {...control} name="description" maxLength={500} />}
      </Field>
      <fieldset>
        <legend>Events to send (none checked: every event)</legend>
        <Problems problems={form.at("events")} />
        {EVENT_TYPES.map(({ type, label }) => (
          <label key={type} className="check">
            <input type="checkbox" name="events" value={type} /> <code>{type}</code>: {label}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}

/**
 * "Rotate secret": asks, POSTs …/rotate-secret and shows the new secret once; the old one keeps
 * signing for 24 hours (docs/events.md#event-endpoints), which the question says.
 */
export function RotateSecret(props: { endpoint: Endpoint | null; onClose: () => void }) {
  const rotate = useDialogMutation(
    {
      mutationFn: ({ id }: Endpoint) =>
        unwrap(
          api.POST("/v1/manage/event-endpoints/{id}/rotate-secret", { params: { path: { id } } }),
        ),
    },
    props.onClose,
  );
  const endpoint = props.endpoint;
  if (rotate.answer) {
    return (
      <Dialog
        open={endpoint !== null}
        title="Copy the new signing secret now"
        onClose={rotate.close}
      >
        <SecretOnce endpoint={rotate.answer} onDone={rotate.close} />
      </Dialog>
    );
  }
  return (
    <ConfirmDialog
      subject={endpoint}
      title="Rotate the signing secret?"
      confirmLabel="Rotate secret"
      mutation={rotate.mutation}
      onClose={rotate.close}
    >
      <p>
        A new secret signs every event from now on. The current one keeps signing alongside it for
        24 hours, so your server has a day to switch.
      </p>
    </ConfirmDialog>
  );
}

/** "Delete": asks, then DELETE /v1/manage/event-endpoints/{id}; `onDeleted` follows success. */
export function DeleteEndpoint(props: {
  endpoint: Endpoint | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const queries = useQueryClient();
  const { mutation: remove, close } = useDialogMutation(
    {
      mutationFn: ({ id }: Endpoint) =>
        unwrap(api.DELETE("/v1/manage/event-endpoints/{id}", { params: { path: { id } } })),
      onSuccess: (_, { id }) => {
        close();
        props.onDeleted?.();
        // The deleted endpoint's own queries would answer 404 if read again: drop them.
        queries.removeQueries({ queryKey: ["event-endpoints", id] });
        queries.removeQueries({ queryKey: ["event-deliveries", id] });
        void queries.invalidateQueries({ queryKey: ["event-endpoints"], exact: true });
      },
    },
    props.onClose,
  );
  const endpoint = props.endpoint;
  return (
    <ConfirmDialog
      subject={endpoint}
      title="Delete this event endpoint?"
      confirmLabel="Delete endpoint"
      mutation={remove}
      onClose={close}
    >
      <p>
        <code className="anywhere">{endpoint?.url}</code> receives no more events, from this moment.
        To pause deliveries instead, disable it on its page.
      </p>
    </ConfirmDialog>
  );
}
