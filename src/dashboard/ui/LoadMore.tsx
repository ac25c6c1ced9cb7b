/**
 * "Load more" under a paged list (docs/dashboard.md#screens): shown while the API says there is
 * more, disabled while the next page loads. `pages` is a TanStack infinite query.
 */
export function LoadMore(props: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  /** The button's text, e.g. "Load more calls". */
  label: string;
}) {
  const { pages } = props;
  if (!pages.hasNextPage) return null;
  return (
    <div className="actions">
      <button
        type="button"
        disabled={pages.isFetchingNextPage}
        onClick={() => void pages.fetchNextPage()}
      >
        {props.label}
      </button>
    </div>
  );
}
