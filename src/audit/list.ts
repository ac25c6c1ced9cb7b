/**
 * Reading the audit log (docs/api/manage.md#audit-log): one workspace's entries, or the
 * operator's own, newest first, filtered by action and actor, a page at a time.
 */
import { and, desc, eq, gte, isNull, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { auditLog } from "../db/audit-tables";
import { isoTime } from "../platform/ids";
import { keysetAfter, type Page, pageOf } from "../platform/paging";
import type { AuditAction, TargetType } from "./actions";
import { AUDIT_RETENTION_MS } from "./record";

/** An entry id, as a cursor names it. */
const AUDIT_ID = /^aud_[0-9A-Za-z]{22}$/;

/** The list's filters and paging (`limit` 1 to 100). */
export type AuditQuery = { action?: AuditAction; actorId?: string; limit: number; cursor?: string };

/** One entry as the API shows it; `actor.name` only for a member or a widget key. */
export type AuditEntryView = {
  id: string;
  at: string;
  actor: { type: "member" | "operator" | "widget_key"; id: string; name?: string };
  action: AuditAction;
  target: { type: TargetType; id: string };
  ip: string | null;
  userAgent: string | null;
};

/**
 * A page of the log of `workspaceId` (null: the operator's), newest first; entries older than 400
 * days are never shown, pruned or not.
 * @param now epoch ms
 * @returns `{data, hasMore, nextCursor}`, `nextCursor` null on the last page
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listAuditLog(
  db: DrizzleD1Database,
  workspaceId: string | null,
  query: AuditQuery,
  now = Date.now(),
): Promise<Page<AuditEntryView>> {
  const filters: (SQL | undefined)[] = [
    workspaceId === null ? isNull(auditLog.workspaceId) : eq(auditLog.workspaceId, workspaceId),
    gte(auditLog.at, now - AUDIT_RETENTION_MS),
    keysetAfter({ time: auditLog.at, id: auditLog.id }, query.cursor, AUDIT_ID, "desc"),
  ];
  if (query.action) filters.push(eq(auditLog.action, query.action));
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...filters))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(query.limit + 1);
  return pageOf(
    rows,
    query.limit,
    (row) => ({ time: row.at, id: row.id }),
    (row) => ({
      id: row.id,
      at: isoTime(row.at),
      actor: {
        type: row.actorType,
        id: row.actorId,
        ...(row.actorName === null ? {} : { name: row.actorName }),
      },
      action: row.action as AuditAction,
      target: { type: row.targetType as TargetType, id: row.targetId },
      ip: row.ip,
      userAgent: row.userAgent,
    }),
  );
}
