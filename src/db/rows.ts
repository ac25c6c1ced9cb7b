/** Reading one row of a workspace's table by its id (docs/errors.md#codes, `not_found`). */
import { and, eq, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { notFound } from "../platform/errors";

/** A table whose rows each belong to one workspace. */
type WorkspaceTable = SQLiteTable & { id: SQLiteColumn; workspaceId: SQLiteColumn };

/**
 * The row of `table` with `id` in the workspace (and matching `where`, when given): another
 * workspace's row is as missing as none, so ids never tell what exists elsewhere.
 * @param missing the 404's message, e.g. "No such agent in this workspace."
 * @throws ApiError 404 not_found
 */
export async function workspaceRow<T extends WorkspaceTable>(
  db: DrizzleD1Database,
  table: T,
  workspaceId: string,
  id: string,
  missing: string,
  where?: SQL,
): Promise<T["$inferSelect"]> {
  const row = await db
    .select()
    .from(table as SQLiteTable)
    .where(and(eq(table.id, id), where, eq(table.workspaceId, workspaceId)))
    .get();
  if (!row) throw notFound(missing);
  return row as T["$inferSelect"];
}
