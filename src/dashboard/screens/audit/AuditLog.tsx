/**
 * Settings › Audit log (docs/dashboard.md#screens): who changed what in the workspace, when and
 * from where, newest first, filtered by action and by who did it, a page at a time with "Load
 * more". Owners and Admins only: the navigation does not offer it to members, and the API refuses
 * them. The filters live in the address's query string, so Back returns to the same view.
 */
import { api, type Schemas } from "../../api";
import { useMembers, useWidgetKeys } from "../../queries";
import { navigate, queryString, useSearch } from "../../router";
import { byName, FilterForm, FilterSelect, Options } from "../../ui/FilterForm";
import { PagedTable } from "../../ui/PagedTable";
import { usePages } from "../../ui/paged";
import { Screen } from "../../ui/Screen";
import { ACTION_GROUPS, ACTION_LABELS, readAuditFilters, TARGET_LABELS } from "./labels";
import "./audit.css";

const HOME = "/app/settings/audit-log";

type Entry = Schemas["AuditEntry"];

/** The Audit log screen; `canChange` (an Owner or Admin) is who may read it. */
export function AuditLog({ canChange }: { canChange: boolean }) {
  return (
    <Screen title="Audit log" breadcrumb="Settings">
      {canChange ? (
        <Entries />
      ) : (
        <p className="muted">Only the workspace's Owners and Admins can read the audit log.</p>
      )}
    </Screen>
  );
}

/** The entries under their filters, a page at a time. */
function Entries() {
  const search = useSearch();
  const filters = readAuditFilters(search);
  const members = useMembers();
  const keys = useWidgetKeys();
  const entries = usePages({
    queryKey: ["audit-log", filters],
    read: (paging) =>
      api.GET("/v1/manage/audit-log", { params: { query: { ...filters, ...paging } } }),
  });
  const filtered = Object.keys(filters).length > 0;

  return (
    <>
      <p className="muted">
        Who changed what in this workspace, when and from where, newest first. Entries are kept 400
        days; nobody can change or delete one.
      </p>
      <FilterForm
        label="Filter the audit log"
        submitLabel="Filter"
        search={search}
        className="audit-filters"
        names={["action", "actorId"]}
        onSearch={(chosen) =>
          navigate(`${HOME}${queryString(readAuditFilters(chosen.toString()))}`)
        }
        clear={filtered ? { href: HOME, label: "Clear filters" } : null}
      >
        <FilterSelect label="Action" name="action" value={filters.action} any="Any action">
          {ACTION_GROUPS.map((group) => (
            <optgroup key={group.label} label={group.label}>
              <Options items={group.actions} />
            </optgroup>
          ))}
        </FilterSelect>
        <FilterSelect label="Who" name="actorId" value={filters.actorId} any="Anyone">
          <optgroup label="Members">
            <Options items={byName(members.data?.data)} />
          </optgroup>
          <optgroup label="Widget keys">
            <Options
              items={(keys.data?.data ?? []).map((key) => ({
                value: key.id,
                label: `${key.name} (${key.keyPrefix}…)`,
              }))}
            />
          </optgroup>
          <option value="operator">The operator</option>
        </FilterSelect>
      </FilterForm>
      <PagedTable
        list={entries}
        what="the audit log"
        count={{
          one: "entry",
          many: "entries",
          none: filtered ? "No entries match these filters." : "No entries yet.",
        }}
        focusNext=".audit-rows tr"
        label="Audit log entries"
        className="audit-table"
        bodyClassName="audit-rows"
        rowHeader={1}
        rowProps={() => ({ tabIndex: -1 })}
        columns={[
          { label: "When", when: (entry) => entry.at },
          { label: "Who", cell: who },
          {
            label: "What",
            cell: (entry) => (
              <>
                {ACTION_LABELS[entry.action]}
                <code className="audit-detail">{entry.action}</code>
              </>
            ),
          },
          {
            label: "On",
            cell: (entry) => (
              <>
                {TARGET_LABELS[entry.target.type]}
                <code className="audit-detail">{entry.target.id}</code>
              </>
            ),
          },
          {
            label: "From",
            cell: (entry) => (
              <>
                {entry.ip ?? <span className="muted">Unknown network</span>}
                {entry.userAgent ? <span className="audit-detail">{entry.userAgent}</span> : null}
              </>
            ),
          },
        ]}
      />
    </>
  );
}

/** Who did it: a member's name, a widget key's (told apart from the people), or the operator. */
function who(entry: Entry) {
  return (
    <>
      {entry.actor.type === "operator" ? "The operator" : (entry.actor.name ?? entry.actor.id)}
      {/* A member's role may have changed since; only a key is told apart from the people. */}
      {entry.actor.type === "widget_key" ? <span className="audit-detail">Widget key</span> : null}
    </>
  );
}
