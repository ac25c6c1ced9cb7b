/**
 * A paged list's controls (docs/dashboard.md#screens): "Load more" under it, shown while the API
 * says there is more, disabled while the next page loads; and how many rows it shows. `pages` is a
 * TanStack infinite query.
 */
import { useEffect, useState } from "react";

/**
 * The button, saying `label` (`busyLabel` while the next page loads, when given). With `focusNext`,
 * a selector of each row's focus target (`.link-rows tr a`), keyboard focus goes on to the first
 * row of the new page once it shows (the button is gone after the last page). In an `.actions`
 * row unless `className` is given, which is then the button's own.
 */
export function LoadMore(props: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  /** The button's text, e.g. "Load more calls". */
  label: string;
  busyLabel?: string;
  focusNext?: string;
  className?: string;
}) {
  const { pages, focusNext } = props;
  // How many rows there were when the next page was asked for: the index of its first row.
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt === null || !focusNext) return;
    const targets = document.querySelectorAll<HTMLElement>(focusNext);
    if (targets.length <= focusAt) return;
    targets[focusAt]?.focus();
    setFocusAt(null);
  });
  if (!pages.hasNextPage) return null;
  const button = (
    <button
      type="button"
      className={props.className}
      disabled={pages.isFetchingNextPage}
      onClick={() => {
        if (focusNext) setFocusAt(document.querySelectorAll(focusNext).length);
        void pages.fetchNextPage();
      }}
    >
      {pages.isFetchingNextPage && props.busyLabel ? props.busyLabel : props.label}
    </button>
  );
  return props.className ? button : <div className="actions">{button}</div>;
}

/**
 * How many rows a paged list shows, announced when it changes: `none` for no rows, otherwise e.g.
 * "Showing the newest 20 links; more can be loaded." (`one` and `many` name a row). Empty until the
 * first page has loaded.
 */
export function Showing(props: {
  pages: { isSuccess: boolean; hasNextPage: boolean };
  count: number;
  one: string;
  many: string;
  none: string;
}) {
  const { pages, count } = props;
  const shown = `${count} ${count === 1 ? props.one : props.many}`;
  const text =
    count === 0
      ? props.none
      : pages.hasNextPage
        ? `Showing the newest ${shown}; more can be loaded.`
        : `Showing ${shown}.`;
  return (
    <p role="status" className="muted">
      {pages.isSuccess ? text : ""}
    </p>
  );
}
