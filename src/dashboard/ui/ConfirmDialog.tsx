/**
 * Asking before an action that cannot be undone (revoke, remove, delete): the question, what
 * follows from it, the action's button, Cancel, and the action's error if it failed.
 */
import type { ReactNode } from "react";
import { Dialog } from "./Dialog";
import { ErrorNote } from "./feedback";

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  /** The action button's text, e.g. `Revoke key`. */
  confirmLabel: string;
  pending: boolean;
  /** The action's error, shown under the message; null while none. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  /** What happens, in a sentence or two. */
  children: ReactNode;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <div className="stack">
        {props.children}
        {props.error ? <ErrorNote error={props.error} /> : null}
        <div className="actions">
          <button
            type="button"
            className="danger"
            disabled={props.pending}
            onClick={props.onConfirm}
          >
            {props.confirmLabel}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
