/**
 * Listing and searching a workspace's links (docs/api/launch.md#listing-links): newest first, by
 * the person's externalId, status, agent and creation time, and with or without the dashboard's
 * preview links, in pages with an opaque cursor. Every filter but `preview` has its index
 * (`links_workspace_*_created`), so a page costs the same at 100,000 links.
 * Reads D1 directly: every create and change is written there before it is answered.
 */
import { and, desc, eq, gt, inArray, like, lt, lte, notLike, or, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { links } from "../db/schema";
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
  const where: (SQL | undefined)[] = [eq(links.workspaceId, key.workspaceId)];
  if (query.flowId !== undefined) {
    if (key.flowIds && !key.flowIds.includes(query.flowId)) {
      throw new ApiError(403, "forbidden_flow", "This key is limited to other agents.");
    }
    where.push(eq(links.flowId, query.flowId));
  } else if (key.flowIds) {
    where.push(inArray(links.flowId, key.flowIds));
  }
  if (query.externalId !== undefined) where.push(eq(links.participantExternalId, query.externalId));
  if (query.status === "pending") where.push(eq(links.status, "pending"), gt(links.expiresAt, now));
  else if (query.status === "expired") {
    where.push(eq(links.status, "pending"), lte(links.expiresAt, now));
  } else if (query.status !== undefined) where.push(eq(links.status, query.status));
  if (query.preview === "true") where.push(like(links.createdByKey, PREVIEW_CREATOR));
  else if (query.preview === "false") where.push(notLike(links.createdByKey, PREVIEW_CREATOR));
  if (query.createdAfter) where.push(gt(links.createdAt, Date.parse(query.createdAfter)));
  if (query.createdBefore) where.push(lt(links.createdAt, Date.parse(query.createdBefore)));
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor, LINK_ID);
    where.push(
      or(
        lt(links.createdAt, after.createdAt),
        and(eq(links.createdAt, after.createdAt), lt(links.id, after.id)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(links)
    .where(and(...where))
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    data: page.map((link) => toLaunch(link, now)),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
