/**
 * Listing and searching a workspace's links (docs/api/launch.md#listing-links): newest first, by
 * the person's externalId, status, agent and creation time, and with or without the dashboard's
 * preview links, in pages with an opaque cursor. Every filter reads index ranges in the list's
 * order (see `ranges`), so a page costs the same at 100,000 links.
 * Reads D1 directly: every create and change is written there before it is answered.
 */
import { and, desc, eq, gt, inArray, like, lt, lte, notLike, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { links, STORED_LINK_STATUSES, type StoredLinkStatus } from "../db/schema";
import { decodeCursor, encodeCursor } from "../platform/cursor";
import { ApiError } from "../platform/errors";
import type { LinkScope } from "./link-rules";
import { toLaunch } from "./links";
import type { LaunchList, ListLaunchesQuery } from "./schemas";

const LINK_ID = /^lnk_[0-9A-Za-z]{1,60}$/;

/**
 * Links a member made, not a widget key: the dashboard's preview links (src/agents/preview),
 * whose `createdByKey` is the member's id. (`_` matches any one character; no key's id starts
 * with `mem`.) No index of its own: it narrows whichever the other filters use, and preview links
 * are few (one live per member and channel, given again for a day).
 */
const PREVIEW_CREATOR = "mem_%";

/** A stored state the page reads. */
type StatusPart = { stored: StoredLinkStatus; expiry?: SQL };

/**
 * The stored states a `status` filter reads, all of them without one. A pending link past its
 * expiry is expired before the ledger's alarm stores `expired`: `pending` and `expired` read the
 * stored pending links on their side of the expiry.
 */
function statusParts(status: ListLaunchesQuery["status"], now: number): StatusPart[] {
  if (status === "pending") return [{ stored: "pending", expiry: gt(links.expiresAt, now) }];
  if (status === "expired")
    return [{ stored: "expired" }, { stored: "pending", expiry: lte(links.expiresAt, now) }];
  if (status !== undefined) return [{ stored: status }];
  return STORED_LINK_STATUSES.map((stored) => ({ stored }));
}

/** `column IN values`, kept out of SQLite's index choice (unary `+`): another index serves. */
const residual = (column: AnySQLiteColumn, values: readonly string[]) =>
  sql`+${column} IN ${values}`;

/**
 * The conditions of each index range the page merges, newest first
 * (docs/performance.md#a-links-rows-over-its-life): a person's links from `links_workspace_external_created`;
 * otherwise one range of `links_workspace_status_created` per stored state, except that an agent's
 * links past pending come from `links_workspace_flow_settled`, one range per agent. Each range
 * reads at most a page and one more row, but the pending range under an agent filter, which
 * reads at most the workspace's pending links (the pending cap; the alarm takes expired ones out).
 */
function ranges(key: LinkScope, query: ListLaunchesQuery, now: number, common: SQL[]): SQL[][] {
  const flows = query.flowId !== undefined ? [query.flowId] : key.flowIds;
  const parts = statusParts(query.status, now);
  if (query.externalId !== undefined) {
    const person = [...common, eq(links.participantExternalId, query.externalId)];
    if (flows) person.push(residual(links.flowId, flows));
    if (query.status !== undefined) {
      person.push(
        residual(
          links.status,
          parts.map((part) => part.stored),
        ),
      );
      // A stored `expired` is past its expiry too: one condition serves both of `expired`'s states.
      const expiry = parts.find((part) => part.expiry)?.expiry;
      if (expiry) person.push(expiry);
    }
    return [person];
  }
  const result: SQL[][] = [];
  for (const part of parts) {
    // An agent's settled links come from its own index below.
    if (part.stored !== "pending" && flows) continue;
    const range = [...common, eq(links.status, part.stored)];
    if (part.expiry) range.push(part.expiry);
    if (flows) range.push(inArray(links.flowId, flows));
    result.push(range);
  }
  const settled = parts.flatMap((part) => (part.stored === "pending" ? [] : [part.stored]));
  for (const flow of flows && settled.length > 0 ? flows : []) {
    const range = [...common, eq(links.flowId, flow), sql`${links.status} <> 'pending'`];
    if (query.status !== undefined) range.push(residual(links.status, settled));
    result.push(range);
  }
  return result;
}

/**
 * The query of one page (for EXPLAIN QUERY PLAN in tests too): one range read directly, several
 * merged by rowid, each at most a page and one more.
 * @throws ApiError 400 invalid_request for a cursor not given out by this API, 403 forbidden_flow
 *   for a `flowId` the key is not limited to
 */
export function listQuery(
  db: DrizzleD1Database,
  key: LinkScope,
  query: ListLaunchesQuery,
  now: number,
) {
  if (query.flowId !== undefined && key.flowIds && !key.flowIds.includes(query.flowId)) {
    throw new ApiError(403, "forbidden_flow", "This key is limited to other agents.");
  }
  const common: SQL[] = [eq(links.workspaceId, key.workspaceId)];
  if (query.preview === "true") common.push(like(links.createdByKey, PREVIEW_CREATOR));
  else if (query.preview === "false") common.push(notLike(links.createdByKey, PREVIEW_CREATOR));
  if (query.createdAfter) common.push(gt(links.createdAt, Date.parse(query.createdAfter)));
  if (query.createdBefore) common.push(lt(links.createdAt, Date.parse(query.createdBefore)));
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor, LINK_ID);
    common.push(
      or(
        lt(links.createdAt, after.createdAt),
        and(eq(links.createdAt, after.createdAt), lt(links.id, after.id)),
      ) as SQL,
    );
  }
  const newestFirst = [desc(links.createdAt), desc(links.id)] as const;
  const [only, ...more] = ranges(key, query, now, common);
  if (only && more.length === 0)
    return db
      .select()
      .from(links)
      .where(and(...only))
      .orderBy(...newestFirst)
      .limit(query.limit + 1);
  // Each range as SQL text, not a query builder of its own: drizzle builds those per call. The
  // ranges are merged on the index's own columns, so only the page's rows are read from the table.
  const page = query.limit + 1;
  const pages = [only ?? [sql`0`], ...more].map(
    (range) =>
      sql`SELECT * FROM (SELECT rowid AS r, ${links.createdAt} AS c, ${links.id} AS i FROM ${links} WHERE ${and(...range)} ORDER BY ${links.createdAt} DESC, ${links.id} DESC LIMIT ${page})`,
  );
  const merged = sql`SELECT r FROM (${sql.join(pages, sql` UNION ALL `)} ORDER BY c DESC, i DESC LIMIT ${page})`;
  return db
    .select()
    .from(links)
    .where(sql`rowid IN (${merged})`)
    .orderBy(...newestFirst)
    .limit(query.limit + 1);
}

/**
 * One page of the links `key` may see (a widget key, or a member's whole workspace), newest first.
 * @param now epoch ms: a pending link past its expiry is `expired`
 * @throws ApiError 400 invalid_request for a cursor not given out by this API, 403 forbidden_flow
 *   for a `flowId` the key is not limited to
 */
export async function listLinks(
  db: DrizzleD1Database,
  key: LinkScope,
  query: ListLaunchesQuery,
  now: number,
): Promise<LaunchList> {
  const rows = await listQuery(db, key, query, now);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    data: page.map((link) => toLaunch(link, now)),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
