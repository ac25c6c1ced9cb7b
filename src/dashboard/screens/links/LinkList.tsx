/**
 * The Links search (docs/dashboard.md#screens): by the person's external id, status and agent,
 * newest first, a page at a time with "Load more"; the dashboard's own preview links only when
 * "Show preview links" is ticked. The filters live in the address's query
 * string, so Back from a link returns to the same search and a search can be shared.
 */
import { useEffect } from "react";
import { api, unwrap } from "../../api";
import { useAgents } from "../../queries";
import { followLink, navigate, queryString, useSearch } from "../../router";
import { DataTable } from "../../ui/DataTable";
import { Field } from "../../ui/Field";
import { FilterForm, FilterSelect, Options } from "../../ui/FilterForm";
import { QueryStatus, When } from "../../ui/feedback";
import { LoadMore, Showing } from "../../ui/LoadMore";
import { usePages } from "../../ui/paged";
import { Screen } from "../../ui/Screen";
import { linkQuery, personName, readFilters, STATUSES, StatusBadge } from "./format";

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
    lastSearch = queryString(readFilters(search));
  }, [search]);
  const agents = useAgents();
  const { pages: links, rows } = usePages({
    queryKey: ["links", filters],
    page: (cursor) =>
      unwrap(
        api.GET("/v1/manage/links", {
          params: {
            query: { ...linkQuery(filters), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
          },
        }),
      ),
  });
  const agentName = (id: string) => agents.data?.data.find((agent) => agent.id === id)?.name ?? id;
  const filtered = Object.keys(filters).length > 0;

  return (
    <Screen
      title="Links"
      intro="The personal conversation links your servers created, newest first. Open one to read its conversation."
    >
      <FilterForm
        label="Search links"
        submitLabel="Search"
        search={search}
        names={["externalId", "status", "flowId", "previews"]}
        onSearch={(chosen) => navigate(`/app/links${queryString(readFilters(chosen.toString()))}`)}
        clear={filtered ? { href: "/app/links", label: "Clear search" } : null}
      >
        <Field className="field" label="Person's external id">
          {(control) => (
            <input
              {...control}
              name="externalId"
              defaultValue={filters.externalId ?? ""}
              maxLength={255}
              autoComplete="off"
            />
          )}
        </Field>
        <FilterSelect label="Status" name="status" value={filters.status} any="Any status">
          <Options items={STATUSES} />
        </FilterSelect>
        <FilterSelect label="Agent" name="flowId" value={filters.flowId} any="Any agent">
          <Options
            items={(agents.data?.data ?? []).map((agent) => ({
              value: agent.id,
              label: agent.name,
            }))}
          />
        </FilterSelect>
        <label className="check">
          <input
            type="checkbox"
            name="previews"
            value="shown"
            defaultChecked={filters.previews === "shown"}
            // A toggle: it applies at once, with the other fields as they stand.
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          />{" "}
          Show preview links
        </label>
      </FilterForm>
      <QueryStatus query={links} what="links" />
      <Showing
        pages={links}
        count={rows.length}
        one="link"
        many="links"
        none={filtered ? "No links match this search." : "No links yet."}
      />
      <DataTable
        rows={rows}
        bodyClassName="link-rows"
        columns={[
          {
            label: "Participant",
            cell: (link) => (
              <>
                <a href={`/app/links/${encodeURIComponent(link.id)}`} onClick={followLink}>
                  {personName(link.participant)}
                </a>
                {link.participant.externalId ? (
                  <span className="external-id">{link.participant.externalId}</span>
                ) : null}
              </>
            ),
          },
          { label: "Agent", cell: (link) => agentName(link.flowId) },
          { label: "Status", cell: (link) => <StatusBadge status={link.status} /> },
          { label: "Created", cell: (link) => <When iso={link.createdAt} /> },
          { label: "Expires", cell: (link) => <When iso={link.expiresAt} /> },
        ]}
      />
      <LoadMore
        pages={links}
        label="Load more"
        busyLabel="Loading more links…"
        focusNext=".link-rows tr a"
        className="load-more"
      />
    </Screen>
  );
}
