/**
 * A list read a page at a time as a table (docs/dashboard.md#screens: links, the audit log,
 * executions, the request log, deliveries): the list's state, the `DataTable` of the rows so far
 * and "Load more" under it while the API says there is more.
 */
import type { ReactNode } from "react";
import { DataTable, type DataTableProps } from "./DataTable";
import { type QueryState, QueryStatus } from "./feedback";
import { LoadMore, Showing } from "./LoadMore";

/** What `usePages` answers, as the table reads it: the infinite query and its rows so far. */
export type PagedList<T> = {
  pages: QueryState & {
    isSuccess: boolean;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => unknown;
  };
  rows: readonly T[];
};

/**
 * The table of `list` (`usePages`), which lists `what` ("the audit log"), told while loading or
 * failed. Without `count`, `empty` is said once loaded without rows, and "Load more" says `more`
 * (default "Load more"). With `count` (a list searched or filtered), how many rows it shows is
 * said above the table instead (`Showing`: `one` and `many` name a row, `none` is what no rows
 * says), and the button says "Loading more entries…" while the next page loads. `focusNext`, a
 * selector of each row's focus target, moves keyboard focus on to the new page's first row. The
 * table's own props are `DataTable`'s.
 */
export function PagedTable<T>(
  props: Omit<DataTableProps<T>, "rows" | "status" | "list"> & {
    list: PagedList<T>;
    what: string;
    empty?: ReactNode;
    count?: { one: string; many: string; none: string };
    more?: string;
    focusNext?: string;
  },
) {
  const { list, what, empty, count, more, focusNext, ...table } = props;
  const { pages, rows } = list;
  return (
    <>
      {count ? (
        <>
          <QueryStatus query={pages} what={what} />
          <Showing pages={pages} count={rows.length} {...count} />
        </>
      ) : null}
      <DataTable
        {...table}
        rows={rows}
        status={count ? undefined : { query: pages, what, empty }}
      />
      <LoadMore
        pages={pages}
        label={more ?? "Load more"}
        busyLabel={count ? `Loading more ${count.many}…` : undefined}
        focusNext={focusNext}
        className={count ? "load-more" : undefined}
      />
    </>
  );
}
