/**
 * A modal dialog on the native `<dialog>` (docs/dashboard.md#screens): the browser traps focus,
 * makes the page behind it inert, closes it on Escape and gives focus back to the control that
 * opened it. `onClose` may be called more than once for one closing; make it idempotent.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { DialogActions } from "./DialogActions";

/** The dialog, open while `open`, named by its `title`; `children` are rendered only while open. */
export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** E.g. `wide` (ui/data.css), for a dialog showing a record rather than asking a question. */
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} className={props.className}>
      <h2 id={titleId}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}

/**
 * A dialog that asks for a form (docs/dashboard.md#screens): its fields (`children`), then the
 * mutation's error, the submit button (`confirm`) and Cancel. `onSubmit` gets the form's data, the
 * page staying where it is; `noValidate` leaves the checks to the screen (the API's own schema).
 * `done`, once given, stands in the form's place: what the mutation answered, shown once.
 */
export function FormDialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  confirm: string;
  mutation: { isPending: boolean; error: unknown };
  onSubmit: (form: FormData) => void;
  noValidate?: boolean;
  done?: ReactNode;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    props.onSubmit(new FormData(event.currentTarget));
  };
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      {props.done ? (
        props.done
      ) : (
        <form className="stack" onSubmit={submit} noValidate={props.noValidate}>
          {props.children}
          <DialogActions
            confirm={props.confirm}
            mutation={props.mutation}
            onClose={props.onClose}
          />
        </form>
      )}
    </Dialog>
  );
}
