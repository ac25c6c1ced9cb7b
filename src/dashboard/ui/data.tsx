/**
 * Small pieces for showing records (docs/dashboard.md#screens): a status badge whose word, not its
 * colour, carries the meaning, and JSON in a `<pre>` that wraps instead of scrolling sideways
 * (so it reads at 375 px and needs no focusable scroll region).
 */
import { prettyJson } from "./format";
import "./data.css";

/** How a badge is coloured: good, bad, under way, or neither. */
export type Tone = "ok" | "bad" | "busy" | "off";

/** A status word in a badge, e.g. `<Badge tone="ok">running</Badge>`. */
export function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** `value` as indented JSON (a heading or label before it says what it is). */
export function Json({ value }: { value: unknown }) {
  return (
    <pre className="json">
      <code>{prettyJson(value)}</code>
    </pre>
  );
}
