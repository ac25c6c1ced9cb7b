/**
 * Reads the tables of docs/performance.md, so a test can hold them to what the meter measures:
 * a change in the counts fails until the page is updated (as `npm run check:docs` holds the
 * citations to the pages).
 */
import page from "../../docs/performance.md?raw";

/** The rows of the first table under the `## heading`, keyed by their first cell. */
export function docTable(heading: string): Map<string, string[]> {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/performance.md has no "## ${heading}"`);
  const rest = page.slice(start + heading.length + 5);
  const next = rest.search(/\n## /);
  const section = next < 0 ? rest : rest.slice(0, next);
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const rows = new Map<string, string[]>();
  // The header and its rule are the first two lines.
  for (const line of lines.slice(2)) {
    const cells = line
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim());
    const [name, ...values] = cells;
    if (name) rows.set(name, values);
  }
  return rows;
}

/** A cell as a number: `1,024` → 1024, `$0.30` → 0.3, `about 850 B` → 850. */
export function cellNumber(cell: string | undefined): number {
  const match = /-?[\d,]*\.?\d+/.exec(cell ?? "");
  if (!match) throw new Error(`not a number: ${cell}`);
  return Number(match[0].replaceAll(",", ""));
}

/** A table row in the page's format, for pasting when the page is behind. */
export function markdownRow(name: string, cells: (string | number)[]): string {
  return `| ${[name, ...cells.map(String)].join(" | ")} |`;
}
