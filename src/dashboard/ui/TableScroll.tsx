/**
 * The scrolling box around a wide table (docs/dashboard.md#screens): at 375 px a table scrolls
 * sideways inside it, so it is a named region (a `<section>` with a name) that takes focus, and keyboard users can scroll it
 * even when the table has no buttons (a member's read-only view).
 */
import type { ReactNode } from "react";

/** `label` names the region, e.g. "Secrets". */
export function TableScroll(props: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1).
    <section className="table-wrap" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
