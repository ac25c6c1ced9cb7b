/**
 * Settings › Audit log (docs/dashboard.md#screens): who changed what in the workspace, when and
 * from where, newest first, filtered by action and by who did it, a page at a time with "Load
 * more". Owners and Admins only: the navigation does not offer it to members, and the API refuses
 * them. The filters live in the address's query string, so Back returns to the same view.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { followLink, navigate, useSearch } from "../../router";
import { ErrorNote, Loading, When } from "../../ui/feedback";
import { TableScroll } from "../../ui/TableScroll";
import {
  ACTION_GROUPS,
  ACTION_LABELS,
  readAuditFilters,
  TARGET_LABELS,
  writeAuditFilters,
} from "./labels";
import "./audit.css";

/** Entries per page: the API's default. */
const PAGE_SIZE = 20;
const HOME = "/app/settings/audit-log";

type Entry = Schemas["AuditEntry"];

/** The Audit log screen; `canChange` (an Owner or Admin) is who may read it. */
export function AuditLog({ canChange }: { canChange: boolean }) {
  return (
    <section aria-labelledby="audit-title">
      <p className="breadcrumb">Settings</p>
      <h1 id="audit-title" tabIndex={-1}>
        Audit log
      </h1>
      {canChange ? (
        <Entries />
      ) : (
        <p className="muted">Only the workspace's Owners and Admins can read the audit log.</p>
      )}
    </section>
  );
}

function Entries() {
  const search = useSearch();
  const filters = readAuditFilters(search);
  const members = useQuery({
    queryKey: ["members"],
    queryFn: () => unwrap(api.GET("/v1/manage/members")),
  });
  const keys = useQuery({
    queryKey: ["widget-keys"],
    queryFn: () => unwrap(api.GET("/v1/manage/widget-keys")),
  });
  const entries = useInfiniteQuery({
    queryKey: ["audit-log", filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/v1/manage/audit-log", {
          params: {
            query: { ...filters, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = new URLSearchParams();
    for (const name of ["action", "actorId"]) chosen.set(name, String(form.get(name) ?? ""));
    navigate(`${HOME}${writeAuditFilters(readAuditFilters(chosen.toString()))}`);
  };
  const rows = entries.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Object.keys(filters).length > 0;
  // After "Load more", focus goes on to the first new entry.
  const [focusRow, setFocusRow] = useState<number | null>(null);
  useEffect(() => {
    if (focusRow === null || rows.length <= focusRow) return;
    document.querySelectorAll<HTMLElement>(".audit-rows tr")[focusRow]?.focus();
    setFocusRow(null);
  }, [focusRow, rows.length]);

  return (
    <>
      <p className="muted">
        Who changed what in this workspace, when and from where, newest first. Entries are kept 400
        days; nobody can change or delete one.
      </p>
      <search aria-label="Filter the audit log">
        {/* Keyed on the search, so Back and Forward show the fields of the view they return to. */}
        <form key={search} className="filter-form audit-filters" onSubmit={submit}>
          <div className="field">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" name="action" defaultValue={filters.action ?? ""}>
              <option value="">Any action</option>
              {ACTION_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.actions.map((action) => (
                    <option key={action.value} value={action.value}>
                      {action.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-actor">Who</label>
            <select id="audit-actor" name="actorId" defaultValue={filters.actorId ?? ""}>
              <option value="">Anyone</option>
              <optgroup label="Members">
                {members.data?.data.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.name}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Widget keys">
                {keys.data?.data.map((key) => (
                  <option key={key.id} value={key.id}>
                    {key.name} ({key.keyPrefix}…)
                  </option>
                ))}
              </optgroup>
              <option value="operator">The operator</option>
            </select>
          </div>
          <div className="actions">
            <button type="submit" className="primary">
              Filter
            </button>
            {filtered ? (
              <a href={HOME} onClick={followLink}>
                Clear filters
              </a>
            ) : null}
          </div>
        </form>
      </search>
      {entries.isPending ? <Loading what="the audit log" /> : null}
      {entries.isError ? <ErrorNote error={entries.error} /> : null}
      <p role="status" className="muted">
        {entries.isSuccess ? summary(rows.length, entries.hasNextPage, filtered) : ""}
      </p>
      {rows.length > 0 ? (
        <TableScroll label="Audit log entries">
          <table className="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody className="audit-rows">
              {rows.map((entry) => (
                <Row key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {entries.hasNextPage ? (
        <button
          type="button"
          className="load-more"
          disabled={entries.isFetchingNextPage}
          onClick={() => {
            setFocusRow(rows.length);
            void entries.fetchNextPage();
          }}
        >
          {entries.isFetchingNextPage ? "Loading more entries…" : "Load more"}
        </button>
      ) : null}
    </>
  );
}

/** One entry: its time, who, the action as a phrase (and its name), the target, the network. */
function Row({ entry }: { entry: Entry }) {
  return (
    <tr tabIndex={-1}>
      <td>
        <When iso={entry.at} />
      </td>
      <th scope="row">
        {entry.actor.type === "operator" ? "The operator" : (entry.actor.name ?? entry.actor.id)}
        {/* A member's role may have changed since; only a key is told apart from the people. */}
        {entry.actor.type === "widget_key" ? (
          <span className="audit-detail">Widget key</span>
        ) : null}
      </th>
      <td>
        {ACTION_LABELS[entry.action]}
        <code className="audit-detail">{entry.action}</code>
      </td>
      <td>
        {TARGET_LABELS[entry.target.type]}
        <code className="audit-detail">{entry.target.id}</code>
      </td>
      <td>
        {entry.ip ?? <span className="muted">Unknown network</span>}
        {entry.userAgent ? <span className="audit-detail">{entry.userAgent}</span> : null}
      </td>
    </tr>
  );
}

/** What the results are, announced when they change. */
function summary(count: number, more: boolean, filtered: boolean): string {
  if (count === 0) return filtered ? "No entries match these filters." : "No entries yet.";
  const shown = `${count} entr${count === 1 ? "y" : "ies"}`;
  return more ? `Showing the newest ${shown}; more can be loaded.` : `Showing ${shown}.`;
}
