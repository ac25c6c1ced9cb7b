/**
 * A modal dialog on the native `<dialog>`: the browser traps focus, makes the page behind it
 * inert, closes it on Escape and gives focus back to the control that opened it. `onClose` may be
 * called more than once for one closing; make it idempotent.
 */
import { type ReactNode, useEffect, useId, useRef } from "react";

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
