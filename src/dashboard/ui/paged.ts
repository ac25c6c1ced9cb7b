/**
 * A list the API answers a page at a time (docs/dashboard.md#screens: links, the audit log,
 * executions, the request log, deliveries), read with TanStack's infinite query; its rows are
 * the pages' rows in order, for `DataTable`, `LoadMore` and `Showing`.
 */
import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import { type Answer, unwrap } from "../api";

/** Rows a page: the API's default (docs/api/README.md#lists-and-paging). */
const PAGE_SIZE = 20;

/**
 * The list under `queryKey`, 20 rows a page: `read` asks the API for the page `paging` says (its
 * `limit` and, after the first, its `cursor`, to spread into the call's query); the page after
 * `last` is at its `nextCursor` (null: it was the last; docs/api/README.md#lists-and-paging).
 * `refetchInterval`, given the rows so far, says how often to read them again (false: not by
 * itself).
 * @returns the infinite query `pages` and its `rows`, as `PagedTable` takes them
 * @throws nothing: a refusal is the query's error (`ApiFailure`)
 */
export function usePages<Page extends { data: unknown[]; nextCursor: string | null }>(options: {
  queryKey: QueryKey;
  read: (paging: { limit: number; cursor?: string }) => Promise<Answer<Page>>;
  refetchInterval?: (rows: Page["data"][number][]) => number | false;
}) {
  const rowsOf = (pages: Page[] | undefined) =>
    (pages?.flatMap((page) => page.data) ?? []) as Page["data"][number][];
  const { refetchInterval } = options;
  const pages = useInfiniteQuery({
    queryKey: options.queryKey,
    queryFn: ({ pageParam }) =>
      unwrap(options.read({ limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: refetchInterval
      ? (query) => refetchInterval(rowsOf(query.state.data?.pages))
      : undefined,
  });
  const rows = rowsOf(pages.data?.pages);
  return { pages, rows };
}
