/**
 * The dashboard's shared pieces as rendered (docs/dashboard.md#screens): a whole list's table
 * named by what it lists, a paged list's count and "Load more", rows edited in place, and a text
 * field with its input's own attributes.
 */
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server.edge";
import { describe, expect, it, vi } from "vitest";
import { DataTable } from "../../src/dashboard/ui/DataTable";
import { TextField } from "../../src/dashboard/ui/Field";
import { PagedTable } from "../../src/dashboard/ui/PagedTable";
import { RowsEditor } from "../../src/dashboard/ui/RowsEditor";

// The dashboard's API client is made for a page; these pieces only import its error type.
vi.hoisted(() => {
  Object.assign(globalThis, { window: { location: { origin: "http://127.0.0.1" } } });
});

type Row = { id: string; name: string };
const loaded = (rows: Row[]) => ({
  isPending: false,
  isError: false,
  error: null,
  data: { data: rows },
});
const columns = [{ label: "Name", cell: (row: Row) => row.name }];
// biome-ignore lint/suspicious/noExplicitAny: the pieces are generic; the test gives them rows.
const render = (type: any, props: Record<string, unknown>) =>
  renderToStaticMarkup(createElement(type, props) as ReactNode);

describe("DataTable's list", () => {
  it("takes its rows from the query and its name from what it lists", () => {
    const html = render(DataTable, {
      list: { query: loaded([{ id: "k1", name: "Billing" }]), what: "widget keys" },
      columns,
    });
    expect(html).toContain('aria-label="Widget keys"');
    expect(html).toContain('<th scope="row">Billing</th>');
  });

  it("shows a `when` column's time as the reader's date and time", () => {
    const html = render(DataTable, {
      rows: [{ id: "k1", name: "Billing", at: "2026-01-02T03:04:05.000Z" }],
      columns: [...columns, { label: "Created", when: (row: { at: string }) => row.at }],
    });
    expect(html).toContain('<time dateTime="2026-01-02T03:04:05.000Z">');
  });

  it("says what an empty list says, with no table", () => {
    const html = render(DataTable, {
      list: { query: loaded([]), what: "agents", empty: "No agents yet." },
      columns,
    });
    expect(html).toBe('<p class="muted">No agents yet.</p>');
  });
});

const paged = (rows: Row[], hasNextPage: boolean) => ({
  pages: {
    isPending: false,
    isError: false,
    error: null,
    isSuccess: true,
    hasNextPage,
    isFetchingNextPage: false,
    fetchNextPage: () => {},
  },
  rows,
});

describe("PagedTable", () => {
  it("counts a searched list's rows and offers the next page", () => {
    const html = render(PagedTable, {
      list: paged([{ id: "l1", name: "Ada" }], true),
      what: "links",
      count: { one: "link", many: "links", none: "No links yet." },
      columns,
    });
    expect(html).toContain("Showing the newest 1 link; more can be loaded.");
    expect(html).toContain('<button type="button" class="load-more">Load more</button>');
  });

  it("says an empty list's note, and no Load more after the last page", () => {
    const html = render(PagedTable, {
      list: paged([], false),
      what: "executions",
      empty: "No executions yet.",
      more: "Load more executions",
      columns,
    });
    expect(html).toBe('<p class="muted">No executions yet.</p>');
  });

  it("names its button as told", () => {
    const html = render(PagedTable, {
      list: paged([{ id: "e1", name: "run" }], true),
      what: "executions",
      more: "Load more executions",
      columns,
    });
    expect(html).toContain('<div class="actions"><button type="button">Load more executions');
  });
});

describe("RowsEditor", () => {
  const rows = [
    { name: "plan", type: "string" },
    { name: "", type: "number" },
  ];
  const editor = (max?: number) =>
    render(RowsEditor, {
      rows,
      onChange: () => {},
      noun: "parameter",
      blank: { name: "", type: "string" },
      max,
      path: "parameters",
      problemsAt: (path: string) => (path === "parameters.1.name" ? ["Enter a name."] : []),
      fields: (_row: unknown, edit: { text: (name: string, label: string) => ReactNode }) =>
        edit.text("name", "Name"),
    });

  it("numbers each row, names its Remove and places its problems", () => {
    const html = editor();
    expect(html).toContain("<legend>Parameter 1</legend>");
    expect(html).toContain('value="plan"');
    expect(html).toContain('Remove<span class="visually-hidden"> parameter plan</span>');
    // The second row is unnamed: its Remove says its number, its name field its problem.
    expect(html).toContain("parameter 2</span>");
    expect(html).toContain("<li>Enter a name.</li>");
    expect(html).toContain('<button type="button" class="start">Add a parameter</button>');
  });

  it("stops adding rows at the most there may be", () => {
    expect(editor(2)).toContain('class="start" disabled="">Add a parameter</button>');
  });
});

describe("TextField", () => {
  it("gives its input the input's own attributes, its hint and its problems", () => {
    const html = render(TextField, {
      label: "Slug",
      hint: "Lower-case letters.",
      name: "slug",
      maxLength: 63,
      value: "orders",
      onChange: () => {},
      error: ["Too long."],
    });
    expect(html).toContain('name="slug"');
    expect(html).toContain('maxLength="63"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain("Lower-case letters.");
    expect(html).toContain("<li>Too long.</li>");
  });
});
