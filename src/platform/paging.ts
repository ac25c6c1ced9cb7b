/**
 * The one list shape (docs/api/README.md#lists-and-paging): every list operation takes
 * `?limit=&cursor=` (the `Limit` and `Cursor` parameter components) and answers a `Page`
 * (`{data, hasMore, nextCursor}`); a query parameter the operation does not take is refused.
 * `listQuery` and `pageSchema` build a route's query and answer; `keysetAfter` and `pageOf` page a
 * D1 table in a stable order (a time, then the id), `readPage` a table by `createdAt`, then `id`.
 */
import { z } from "@hono/zod-openapi";
import { and, asc, type Column, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { decodeCursor, encodeCursor } from "./cursor";
import { answers } from "./openapi";

/** Every list's `limit`: its default and its largest value. */
export const PAGE_LIMIT = { default: 20, max: 100 } as const;

/** `?limit=`, the `Limit` parameter component. */
export const LimitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(PAGE_LIMIT.max)
  .default(PAGE_LIMIT.default)
  .openapi({
    param: { name: "limit", in: "query" },
    description: `Items per page, 1 to ${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default}). docs/api/README.md#lists-and-paging`,
  })
  .openapi("Limit");

/** `?cursor=`, the `Cursor` parameter component; what it names is checked by the list (400). */
export const CursorParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .openapi({
    param: { name: "cursor", in: "query" },
    description:
      "The `nextCursor` of the page before; absent for the first page. An opaque string: a cursor this list did not give out is 400 `invalid_request` (field `query.cursor`).",
  })
  .openapi("Cursor");

/** What every page carries besides `data`, the `Page` component each list's answer extends. */
export const PageSchema = z
  .object({
    hasMore: z.boolean().openapi({ description: "Whether a page follows this one" }),
    nextCursor: z.string().nullable().openapi({
      description: "The `cursor` of the next page; null on the last page",
    }),
  })
  .openapi("Page", {
    description:
      "A page of a list, its items in `data` in the list's order (docs/api/README.md#lists-and-paging)",
  });

/** The query of a list route: its own `filters`, then `limit` and `cursor`; nothing else. */
export function listQuery<const S extends z.ZodRawShape = Record<never, never>>(filters?: S) {
  return z.strictObject({ ...(filters as S), limit: LimitParam, cursor: CursorParam });
}

/** The answer of a list route: the `Page` component with `data` of `item`, named `name`. */
export function pageSchema<T extends z.ZodType>(name: string, item: T) {
  return PageSchema.extend({ data: z.array(item) }).openapi(name);
}

/**
 * The config of a plain list route: `head` (an `operations(…)` head), `?limit=&cursor=` as its
 * query (`listQuery()`) and a page of `item`, the component `name`, as its 200 answer.
 */
export function pageRoute<H extends object, T extends z.ZodType>(
  head: H,
  name: string,
  item: T,
  description: string,
) {
  return {
    ...head,
    request: { query: listQuery() },
    responses: answers(200, pageSchema(name, item), description),
  };
}

/** The ids with `prefix` a cursor of a list may name (a cursor of another list is refused). */
export function idsOf(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9A-Za-z_-]{1,64}$`);
}

/** A page as the API answers it. */
export type Page<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

/** The paging part of a list query, as `listQuery` gives it. */
export type PageQuery = { limit: number; cursor?: string | undefined };

/**
 * The condition that keeps the rows after a cursor, in the order `time` then `id`, both ascending
 * or both descending; none for the first page.
 * @param idPattern the ids this list holds, so a cursor of another list is refused
 * @throws ApiError 400 invalid_request (field `query.cursor`) for a cursor not given out
 */
export function keysetAfter(
  columns: { time: Column; id: Column },
  cursor: string | undefined,
  idPattern: RegExp,
  order: "asc" | "desc",
): SQL | undefined {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor, idPattern);
  const beyond = order === "asc" ? gt : lt;
  return or(
    beyond(columns.time, after.createdAt),
    and(eq(columns.time, after.createdAt), beyond(columns.id, after.id)),
  );
}

/**
 * The page of `rows`, read with `limit + 1` so one more than the page tells whether another
 * follows; `position` gives a row's time (epoch ms) and id for the next cursor.
 */
export function pageOf<R, T>(
  rows: readonly R[],
  limit: number,
  position: (row: R) => { time: number; id: string },
  view: (row: R) => T,
): Page<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  const at = last === undefined ? undefined : position(last);
  return {
    data: page.map(view),
    hasMore,
    nextCursor: hasMore && at ? encodeCursor(at.time, at.id) : null,
  };
}

/** A table listed in the order of its `createdAt` (epoch ms), then its `id`. */
type Listed = SQLiteTable & { createdAt: SQLiteColumn; id: SQLiteColumn };

/**
 * A page of the rows of `table` that match `where`, by `createdAt` then `id` (both in `order`),
 * each shown by `view`.
 * @param ids the ids this list holds, so a cursor of another list is refused
 * @throws ApiError 400 invalid_request (field `query.cursor`) for a cursor not given out
 */
export async function readPage<T extends Listed, V>(
  db: DrizzleD1Database,
  table: T,
  where: SQL | undefined,
  query: PageQuery,
  list: { ids: RegExp; order: "asc" | "desc" },
  view: (row: T["$inferSelect"]) => V,
): Promise<Page<V>> {
  const columns = { time: table.createdAt, id: table.id };
  const by = list.order === "asc" ? asc : desc;
  // drizzle types the rows of a generic table loosely; they are the table's own.
  const rows = (await db
    .select()
    .from(table as SQLiteTable)
    .where(and(where, keysetAfter(columns, query.cursor, list.ids, list.order)))
    .orderBy(by(table.createdAt), by(table.id))
    .limit(query.limit + 1)) as (T["$inferSelect"] & { createdAt: number; id: string })[];
  return pageOf(rows, query.limit, (row) => ({ time: row.createdAt, id: row.id }), view);
}
