/**
 * The foot of a dialog, or of a form in place (docs/dashboard.md#screens): the error of what it
 * last tried, announced, then its buttons: the main one (submitting the form, or `onConfirm`) and
 * the one that closes it (Cancel, or Done or Close in a dialog that asks nothing).
 */
import { ErrorNote } from "./feedback";

/**
 * `confirm` is the main button's text (none: the closing button alone); it submits the form it
 * stands in unless `onConfirm` is given, is `primary` unless `tone` says `danger`, and is disabled
 * while `mutation` (what it runs, a TanStack mutation) is pending; the mutation's error is shown
 * above the buttons. `closeLabel` is the closing button's text, Cancel unless said. `focusClose`:
 * the closing button takes focus when the dialog opens, not the first one, as a question before an
 * action that cannot be undone asks (a stray Enter then cancels).
 */
export function DialogActions(props: {
  confirm?: string;
  onConfirm?: () => void;
  tone?: "primary" | "danger";
  mutation?: { isPending: boolean; error: unknown };
  onClose: () => void;
  closeLabel?: string;
  focusClose?: boolean;
}) {
  return (
    <>
      {props.mutation?.error ? <ErrorNote error={props.mutation.error} /> : null}
      <div className="actions">
        {props.confirm ? (
          <button
            type={props.onConfirm ? "button" : "submit"}
            className={props.tone ?? "primary"}
            disabled={props.mutation?.isPending}
            onClick={props.onConfirm}
          >
            {props.confirm}
          </button>
        ) : null}
        <button
          type="button"
          onClick={props.onClose}
          ref={props.focusClose ? markAutofocus : undefined}
        >
          {props.closeLabel ?? "Cancel"}
        </button>
      </div>
    </>
  );
}

/**
 * Sets the `autofocus` attribute, which `<dialog>.showModal()` honours over its first focusable
 * control. React's own `autoFocus` only calls `focus()` at mount, before the dialog opens and
 * moves focus to its first control, so it would not hold.
 */
function markAutofocus(button: HTMLButtonElement | null): void {
  button?.setAttribute("autofocus", "");
}
