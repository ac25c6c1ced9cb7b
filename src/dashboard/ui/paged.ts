/**
 * A list the API answers a page at a time (docs/dashboard.md#screens: links, the audit log,
 * executions, the request log, deliveries), read with TanStack's infinite query; its rows are
 * the pages' rows in order, for `DataTable`, `LoadMore` and `Showing`.
 */
import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";

/**
 * The list under `queryKey`: `page` asks for the page after `cursor` (none: the first); the page
 * after `last` is at its `nextCursor` (null: it was the last; docs/api/README.md#lists-and-paging).
 * `refetchInterval`, given the rows so far, says how often to read them again (false: not by
 * itself).
 * @returns the infinite query `pages` and its `rows`
 */
export function usePages<Page extends { data: unknown[]; nextCursor: string | null }>(options: {
  queryKey: QueryKey;
  page: (cursor: string | undefined) => Promise<Page>;
  refetchInterval?: (rows: Page["data"][number][]) => number | false;
}) {
  const rowsOf = (pages: Page[] | undefined) =>
    (pages?.flatMap((page) => page.data) ?? []) as Page["data"][number][];
  const { refetchInterval } = options;
  const pages = useInfiniteQuery({
    queryKey: options.queryKey,
    queryFn: ({ pageParam }) => options.page(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: refetchInterval
      ? (query) => refetchInterval(rowsOf(query.state.data?.pages))
      : undefined,
  });
  const rows = rowsOf(pages.data?.pages);
  return { pages, rows };
}
