/**
 * A table of records (docs/dashboard.md#screens): the list's state while it loads, fails or is
 * empty (`status`), then a header row naming the columns and one row a record whose first column
 * (or `rowHeader`) is the row's header, so a screen reader names each cell by its row and column;
 * a last column, named for screen readers only, holds a row's buttons (`actions`, each a
 * `RowAction`). Inside `TableScroll`, a focusable region when `label` names it, which says when
 * columns are cut off on the right; no table at all for no rows.
 */
import type { HTMLAttributes, Key, ReactNode } from "react";
import { ListStatus, type QueryState, When } from "./feedback";
import { TableScroll } from "./TableScroll";

/**
 * One column: its name and what its cell shows for a record, `cell` or, for a time, `when`: the
 * record's ISO time, shown as the reader's local date and time (`When`).
 */
export type Column<T> = {
  label: string;
  /** The name is for screen readers only (the column of `actions`). */
  hidden?: boolean;
  /** The class of the column's body cells, e.g. `nowrap` or `row-actions`. */
  className?: string;
} & ({ cell: (row: T) => ReactNode } | { when: (row: T) => string | null | undefined });

/** What `column` shows for `row`. */
function cellOf<T>(column: Column<T>, row: T): ReactNode {
  return "when" in column ? <When iso={column.when(row)} /> : column.cell(row);
}

/** A list's query as `DataTable` reads it: its states, and the API's `{ data }` once loaded. */
export type ListQuery<T> = QueryState & { data?: { data: readonly T[] } };

/** What `DataTable` takes; `PagedTable` takes the same but for the rows and their states. */
export type DataTableProps<T> = {
  label?: string;
  columns: (Column<T> | false)[];
  actions?: ((row: T) => ReactNode) | false;
  actionsClass?: string;
  rows?: readonly T[] | undefined;
  status?: { query: QueryState; what: string; empty?: ReactNode };
  /** A whole list the API answered: `status` with the query's own rows, named by `what`. */
  list?: { query: ListQuery<T>; what: string; empty?: ReactNode };
  /** Each row's React key; the row's `id` unless given. */
  rowKey?: (row: T) => Key;
  /** Which column heads each row; the first unless said. */
  rowHeader?: number;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement>;
  className?: string;
  bodyClassName?: string;
};

/**
 * The table of `rows` (undefined until loaded). With `status`, the list's `query` and `what` it
 * lists are told while loading or failed, and `empty` once loaded without rows; `list` is the
 * same for a list read whole (`{ data }`, e.g. `useAgents()`), whose rows are its data and whose
 * table `label` is `what` capitalised unless given ("widget keys": "Widget keys"). `columns` may
 * hold `false` for a column not shown; `actions` (when given, not `false`) renders a row's buttons
 * in the last column, "Actions" to screen readers, its cells of class `actionsClass`
 * (`row-actions` lays several out side by side). `rowKey` gives React each row's key, `rowProps`
 * a row's own attributes (a class, `tabIndex`), `className` and `bodyClassName` the classes of the
 * table and its body (selectors of the browser tests, e.g. `.link-rows`).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { list } = props;
  const given = list ? list.query.data?.data : props.rows;
  const rows = given ?? [];
  const told = list ?? props.status;
  const status = told ? (
    <ListStatus query={told.query} what={told.what} count={given?.length}>
      {told.empty}
    </ListStatus>
  ) : null;
  const label = props.label ?? (list ? capitalised(list.what) : undefined);
  if (rows.length === 0) return status;
  const columns = props.columns.filter((column): column is Column<T> => column !== false);
  const actions = props.actions;
  if (actions)
    columns.push({ label: "Actions", hidden: true, className: props.actionsClass, cell: actions });
  const header = props.rowHeader ?? 0;
  const keyOf = props.rowKey ?? ((row: T) => (row as { id: Key }).id);
  const table = (
    <table className={props.className}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.label}>
              {column.hidden ? (
                <span className="visually-hidden">{column.label}</span>
              ) : (
                column.label
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={props.bodyClassName}>
        {rows.map((row) => (
          <tr key={keyOf(row)} {...props.rowProps?.(row)}>
            {columns.map((column, index) =>
              index === header ? (
                <th scope="row" key={column.label} className={column.className}>
                  {cellOf(column, row)}
                </th>
              ) : (
                <td key={column.label} className={column.className}>
                  {cellOf(column, row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <>
      {status}
      <TableScroll label={label}>{table}</TableScroll>
    </>
  );
}

/** `text` with its first letter upper-case. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A button on a row (docs/dashboard.md#screens): it shows `children` and says `target` too to
 * screen readers, so each row's button has its own name, e.g. "Delete" + "API_TOKEN", "Replace
 * value" + "of API_TOKEN". `danger` for one that deletes or revokes, `small` beside other content.
 */
export function RowAction(props: {
  children: string;
  target: string;
  onClick: () => void;
  danger?: boolean;
  small?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={props.danger ? "danger" : props.small ? "small" : undefined}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
      <span className="visually-hidden"> {props.target}</span>
    </button>
  );
}
