/**
 * A value shown once with a copy button (docs/dashboard.md#screens): a labelled read-only field,
 * so it can also be selected by hand, and a status that says when it is on the clipboard.
 */
import { type ReactNode, useState } from "react";
import { DialogActions } from "./DialogActions";
import { Field } from "./Field";

/** `label` names the field and the button says `Copy {what}`. */
export function CopyField(props: { label: string; what: string; value: string }) {
  const [copied, setCopied] = useState<"" | "yes" | "no">("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied("yes");
    } catch {
      // A browser without clipboard access: the field can still be selected and copied.
      setCopied("no");
    }
  };
  return (
    <div className="stack">
      <Field label={props.label}>
        {(control) => (
          <input
            {...control}
            readOnly
            value={props.value}
            className="secret"
            onFocus={(event) => event.currentTarget.select()}
          />
        )}
      </Field>
      <div className="actions">
        <button type="button" className="primary" onClick={copy}>
          Copy {props.what}
        </button>
        <span role="status">
          {copied === "yes" ? "Copied to the clipboard." : ""}
          {copied === "no" ? "Could not copy; select the text and copy it yourself." : ""}
        </span>
      </div>
    </div>
  );
}

/**
 * A credential shown once in a dialog (docs/dashboard.md#screens: a widget key, a signing secret,
 * a sign-in link): `warning` says so, announced; then the value in a `CopyField` and Done.
 */
export function ShownOnce(props: {
  warning: ReactNode;
  label: string;
  what: string;
  value: string;
  onDone: () => void;
}) {
  return (
    <div className="stack">
      <p className="warning" role="alert">
        {props.warning}
      </p>
      <CopyField label={props.label} what={props.what} value={props.value} />
      <DialogActions onClose={props.onDone} closeLabel="Done" />
    </div>
  );
}
