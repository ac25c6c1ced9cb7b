/**
 * Asking before an action that cannot be undone (docs/dashboard.md#screens: revoke, remove,
 * delete): the question, what follows from it, the action's error if it failed, the action's
 * button and Cancel, which has the focus when it opens (a stray Enter must not revoke).
 */
import type { ReactNode } from "react";
import { Dialog } from "./Dialog";
import { DialogActions } from "./DialogActions";

/**
 * The dialog, open while `subject` (what is asked about: a key, a member, an action) is not null;
 * the action's button runs `mutation` on it. `children` say what happens, in a sentence or two.
 */
export function ConfirmDialog<T>(props: {
  subject: T | null;
  title: string;
  /** The action button's text, e.g. `Revoke key`. */
  confirmLabel: string;
  /** The action, a TanStack mutation of the subject: the button waits while it is pending. */
  mutation: { isPending: boolean; error: unknown; mutate: (subject: T) => void };
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={props.subject !== null} title={props.title} onClose={props.onClose}>
      <div className="stack">
        {props.children}
        <DialogActions
          confirm={props.confirmLabel}
          onConfirm={() => props.subject !== null && props.mutation.mutate(props.subject)}
          tone="danger"
          mutation={props.mutation}
          onClose={props.onClose}
          focusClose
        />
      </div>
    </Dialog>
  );
}
