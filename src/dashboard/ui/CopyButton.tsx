/**
 * A button that copies `text` to the clipboard and says so in a status message next to it
 * (docs/dashboard.md#screens). `what` completes its accessible name: "Copy <what>".
 */
import { useState } from "react";

/** Copies `text`; its name is "Copy <what>", its result a status message beside it. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("Copied.");
    } catch {
      // Denied or unavailable (an http origin other than localhost): the text is on screen.
      setSaid("Copying failed; select the text instead.");
    }
  };
  return (
    <>
      <button type="button" className="small" onClick={copy}>
        Copy<span className="visually-hidden"> {what}</span>
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </>
  );
}
