/**
 * The scrolling box around a wide table (docs/dashboard.md#screens): at 390 px a table scrolls
 * sideways inside it. While columns are cut off on the right (a row's buttons, usually last), a
 * "Scroll for more →" hint stands above it and a shadow marks the cut edge, so nobody takes the
 * visible columns for all there is. Named by `label`, it is a region (a `<section>`) that takes
 * focus, so keyboard users can scroll it even when the table has no buttons (a member's read-only
 * view); unnamed, a plain box.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import "./data.css";

/** Whether `box` is wider inside than out, and whether some of it is cut off on the right. */
function overflowOf(box: HTMLElement): { wide: boolean; more: boolean } {
  // 1 px of rounding allowed: fractional widths must not show a hint for nothing.
  const wide = box.scrollWidth - 1 > box.clientWidth;
  return { wide, more: wide && box.scrollLeft + box.clientWidth < box.scrollWidth - 1 };
}

/** `label` names the region, e.g. "Secrets". */
export function TableScroll(props: { label?: string; children: ReactNode }) {
  const ref = useRef<HTMLElement & HTMLDivElement>(null);
  const [{ wide, more }, setOverflow] = useState({ wide: false, more: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () =>
      setOverflow((was) => {
        const now = overflowOf(box);
        return now.wide === was.wide && now.more === was.more ? was : now;
      });
    check();
    // The table's width changes with the window and with its rows (a page loaded, a filter).
    const resized = new ResizeObserver(check);
    resized.observe(box);
    if (box.firstElementChild) resized.observe(box.firstElementChild);
    box.addEventListener("scroll", check, { passive: true });
    return () => {
      resized.disconnect();
      box.removeEventListener("scroll", check);
    };
  }, []);
  const className = more ? "table-wrap more-right" : "table-wrap";
  return (
    <>
      {wide ? (
        // Kept in place once scrolled to the end (hidden, not removed), so the table never jumps.
        <p className={more ? "scroll-hint muted" : "scroll-hint muted done"}>Scroll for more →</p>
      ) : null}
      {props.label ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1).
        <section ref={ref} className={className} aria-label={props.label} tabIndex={0}>
          {props.children}
        </section>
      ) : (
        <div ref={ref} className={className}>
          {props.children}
        </div>
      )}
    </>
  );
}
