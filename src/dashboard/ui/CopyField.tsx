/**
 * A value shown once with a copy button (docs/dashboard.md#screens): a labelled read-only field,
 * so it can also be selected by hand, and a status that says when it is on the clipboard.
 */
import { useId, useState } from "react";

/** `label` names the field and the button says `Copy {what}`. */
export function CopyField(props: { label: string; what: string; value: string }) {
  const id = useId();
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
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        readOnly
        value={props.value}
        className="secret"
        onFocus={(event) => event.currentTarget.select()}
      />
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
