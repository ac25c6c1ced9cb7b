/**
 * A value shown once with a copy button (docs/dashboard.md#screens): a labelled read-only field,
 * so it can also be selected by hand, and a status that says when it is on the clipboard.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { DialogActions } from "./DialogActions";
import { Field } from "./Field";

/**
 * `label` names the field and the button says `Copy {what}`; `describedBy` gives the ids of what
 * describes the field (a warning); `autoFocus` moves focus to it (the value selected) as it appears.
 */
export function CopyField(props: {
  label: string;
  what: string;
  value: string;
  describedBy?: string;
  autoFocus?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // The form that made the value is gone, and focus with it: the value is where a reader lands.
    if (props.autoFocus) input.current?.focus();
  }, [props.autoFocus]);
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
      <Field label={props.label} describedBy={props.describedBy}>
        {(control) => (
          <input
            {...control}
            ref={input}
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
 * a sign-in link): a region named `Your new {what}, shown once` (or `region`), its `warning`
 * announced as it appears (an alert), then the value in a `CopyField`, which takes the focus with
 * the warning as its description, and Done.
 */
export function ShownOnce(props: {
  warning: ReactNode;
  label: string;
  what: string;
  value: string;
  onDone: () => void;
  region?: string;
}) {
  const warningId = useId();
  return (
    <section className="stack" aria-label={props.region ?? `Your new ${props.what}, shown once`}>
      <p id={warningId} className="warning" role="alert">
        {props.warning}
      </p>
      <CopyField
        label={props.label}
        what={props.what}
        value={props.value}
        describedBy={warningId}
        autoFocus
      />
      <DialogActions onClose={props.onDone} closeLabel="Done" />
    </section>
  );
}
