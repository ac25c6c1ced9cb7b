/**
 * The Links search (docs/dashboard.md#screens): by the person's external id, status and agent,
 * newest first, a page at a time with "Load more". The filters live in the address's query
 * string, so Back from a link returns to the same search and a search can be shared.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { api, unwrap } from "../../api";
import { followLink, navigate, useSearch } from "../../router";
import { ErrorNote, Loading, When } from "../../ui/feedback";
import { personName, readFilters, STATUSES, StatusBadge, writeFilters } from "./format";

/** Links per page: the API's default. */
const PAGE_SIZE = 20;

/** The last search shown, so the link page's way back returns to it. */
let lastSearch = "";

/** Where "Links" leads back to from a link's page: the search last shown. */
export const linksHome = () => `/app/links${lastSearch}`;

/**
 * The search form, the results table (participant, agent, status, created, expires) and paging
 * (docs/dashboard.md#screens); each participant opens the link's page.
 */
export function LinkList() {
  const search = useSearch();
  const filters = readFilters(search);
  useEffect(() => {
    lastSearch = writeFilters(readFilters(search));
  }, [search]);
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => unwrap(api.GET("/v1/manage/agents")),
  });
  const links = useInfiniteQuery({
    queryKey: ["links", filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/v1/manage/links", {
          params: {
            query: { ...filters, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const agentName = (id: string) => agents.data?.data.find((agent) => agent.id === id)?.name ?? id;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const params = new URLSearchParams();
    for (const name of ["externalId", "status", "flowId"]) {
      params.set(name, String(form.get(name) ?? ""));
    }
    navigate(`/app/links${writeFilters(readFilters(params.toString()))}`);
  };
  const rows = links.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.keys(filters).length > 0;
  // After "Load more", focus goes on to the first new link (the button is gone after the last page).
  const [focusRow, setFocusRow] = useState<number | null>(null);
  useEffect(() => {
    if (focusRow === null || rows.length <= focusRow) return;
    document.querySelectorAll<HTMLElement>(".link-rows tr a")[focusRow]?.focus();
    setFocusRow(null);
  }, [focusRow, rows.length]);
  const loadMore = () => {
    setFocusRow(rows.length);
    void links.fetchNextPage();
  };

  return (
    <section aria-labelledby="links-title">
      <h1 id="links-title" tabIndex={-1}>
        Links
      </h1>
      <p className="muted">
        The personal conversation links your servers created, newest first. Open one to read its
        conversation.
      </p>
      <search aria-label="Search links">
        {/* Keyed on the search, so Back and Forward show the fields of the search they return to. */}
        <form key={search} className="filter-form" onSubmit={submit}>
          <div className="field">
            <label htmlFor="search-external-id">Person's external id</label>
            <input
              id="search-external-id"
              name="externalId"
              defaultValue={filters.externalId ?? ""}
              maxLength={255}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor="search-status">Status</label>
            <select id="search-status" name="status" defaultValue={filters.status ?? ""}>
              <option value="">Any status</option>
              {STATUSES.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="search-agent">Agent</label>
            <select id="search-agent" name="flowId" defaultValue={filters.flowId ?? ""}>
              <option value="">Any agent</option>
              {agents.data?.data.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <button type="submit" className="primary">
              Search
            </button>
            {filtered ? (
              <a href="/app/links" onClick={followLink}>
                Clear search
              </a>
            ) : null}
          </div>
        </form>
      </search>
      {links.isPending ? <Loading what="links" /> : null}
      {links.isError ? <ErrorNote error={links.error} /> : null}
      <p role="status" className="muted">
        {links.isSuccess ? summary(rows.length, links.hasNextPage, filtered) : ""}
      </p>
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Participant</th>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody className="link-rows">
              {rows.map((link) => (
                <tr key={link.id}>
                  <th scope="row">
                    <a href={`/app/links/${encodeURIComponent(link.id)}`} onClick={followLink}>
                      {personName(link.participant)}
                    </a>
                    {link.participant.externalId ? (
                      <span className="external-id">{link.participant.externalId}</span>
                    ) : null}
                  </th>
                  <td>{agentName(link.flowId)}</td>
                  <td>
                    <StatusBadge status={link.status} />
                  </td>
                  <td>
                    <When iso={link.createdAt} />
                  </td>
                  <td>
                    <When iso={link.expiresAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {links.hasNextPage ? (
        <button
          type="button"
          className="load-more"
          disabled={links.isFetchingNextPage}
          onClick={loadMore}
        >
          {links.isFetchingNextPage ? "Loading more links…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
}

/** What the results are, announced when they change. */
function summary(count: number, more: boolean, filtered: boolean): string {
  if (count === 0) return filtered ? "No links match this search." : "No links yet.";
  const shown = `${count} link${count === 1 ? "" : "s"}`;
  return more ? `Showing the newest ${shown}; more can be loaded.` : `Showing ${shown}.`;
}
