/**
 * The Links search (docs/dashboard.md#screens): by the person's external id, status and agent,
 * newest first, a page at a time with "Load more"; the dashboard's own preview links only when
 * "Show preview links" is ticked. The filters live in the address's query
 * string, so Back from a link returns to the same search and a search can be shared.
 */
import { useEffect } from "react";
import { api } from "../../api";
import { useAgents } from "../../queries";
import { followLink, navigate, queryString, useSearch } from "../../router";
import { Field } from "../../ui/Field";
import { byName, FilterForm, FilterSelect, Options } from "../../ui/FilterForm";
import { PagedTable } from "../../ui/PagedTable";
import { usePages } from "../../ui/paged";
import { Screen } from "../../ui/Screen";
import { linkQuery, personName, readFilters, STATUSES, StatusBadge } from "./format";

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
  const links = usePages({
    queryKey: ["links", filters],
    read: (paging) =>
      api.GET("/v1/manage/links", { params: { query: { ...linkQuery(filters), ...paging } } }),
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
          <Options items={byName(agents.data?.data)} />
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
      <PagedTable
        list={links}
        what="links"
        count={{
          one: "link",
          many: "links",
          none: filtered ? "No links match this search." : "No links yet.",
        }}
        focusNext=".link-rows tr a"
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
          { label: "Created", when: (link) => link.createdAt },
          { label: "Expires", when: (link) => link.expiresAt },
        ]}
      />
    </Screen>
  );
}
