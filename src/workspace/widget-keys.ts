/**
 * Widget keys (docs/security.md#widget-keys, docs/api/manage.md#widget-keys): created by owners and admins, shown once, stored as
 * SHA-256, optionally limited to agents and given an expiry; revoked at once.
 */

import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { WIDGET_KEY_PREFIX } from "../auth";
import { agents, type WidgetKey, widgetKeys } from "../db/schema";
import type { LinkLedgerApi } from "../launch/ledger/contract";
import { generateChecksummedSecret, sha256Hex } from "../platform/crypto";
import { type ErrorDetail, invalidRequest, notFound } from "../platform/errors";
import { isoTime, isoTimeOrNull, newId } from "../platform/ids";
import { idsOf, type Page, type PageQuery, readPage } from "../platform/paging";
import type { CreatedWidgetKeySchema, CreateWidgetKeySchema, WidgetKeySchema } from "./schemas";

type WidgetKeyView = z.infer<typeof WidgetKeySchema>;

function toWidgetKey(row: WidgetKey): WidgetKeyView {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix,
    flowIds: row.flowIds ?? null,
    expiresAt: isoTimeOrNull(row.expiresAt),
    createdAt: isoTime(row.createdAt),
    createdBy: row.createdBy,
    lastUsedAt: isoTimeOrNull(row.lastUsedAt),
  };
}

/**
 * Creates a widget key. @throws 400 invalid_request when a flowId is not an agent of the workspace
 * (`unknown_agent`) or expiresAt is not in the future (`out_of_range`).
 */
export async function createWidgetKey(
  db: DrizzleD1Database,
  workspaceId: string,
  createdBy: string,
  input: z.infer<typeof CreateWidgetKeySchema>,
  now = Date.now(),
): Promise<z.infer<typeof CreatedWidgetKeySchema>> {
  const problems: ErrorDetail[] = [];
  const flowIds = input.flowIds ? [...new Set(input.flowIds)] : null;
  if (flowIds) {
    const found = await db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.workspaceId, workspaceId), inArray(agents.id, flowIds)));
    const known = new Set(found.map((agent) => agent.id));
    for (const [index, flowId] of flowIds.entries()) {
      if (!known.has(flowId)) {
        problems.push({
          field: `flowIds.${index}`,
          code: "unknown_agent",
          message: `No agent ${flowId} in this workspace.`,
        });
      }
    }
  }
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
  if (expiresAt !== null && expiresAt <= now) {
    problems.push({
      field: "expiresAt",
      code: "out_of_range",
      message: "expiresAt must be in the future.",
    });
  }
  if (problems.length > 0) throw invalidRequest("The widget key request is invalid.", problems);

  const key = generateChecksummedSecret(WIDGET_KEY_PREFIX);
  const row: WidgetKey = {
    id: newId("wk"),
    workspaceId,
    name: input.name,
    keyHash: await sha256Hex(key),
    keyPrefix: key.slice(0, WIDGET_KEY_PREFIX.length + 4),
    flowIds,
    expiresAt,
    createdAt: now,
    createdBy,
    revokedAt: null,
    lastUsedAt: null,
  };
  await db.insert(widgetKeys).values(row);
  return { ...toWidgetKey(row), key };
}

/**
 * A page of the workspace's keys that are not revoked, without their secrets, oldest first (then
 * by id). @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listWidgetKeys(
  db: DrizzleD1Database,
  workspaceId: string,
  query: PageQuery,
): Promise<Page<WidgetKeyView>> {
  const where = and(eq(widgetKeys.workspaceId, workspaceId), isNull(widgetKeys.revokedAt));
  return readPage(db, widgetKeys, where, query, { ids: idsOf("wk"), order: "asc" }, toWidgetKey);
}

/**
 * Revokes a key through its link ledger, which refuses it from the next call on, in every
 * isolate. Idempotent. @throws 404 not_found.
 */
export async function revokeWidgetKey(
  limiter: Pick<LinkLedgerApi, "revokeWidgetKey">,
  workspaceId: string,
  keyId: string,
): Promise<void> {
  if (!(await limiter.revokeWidgetKey(workspaceId, keyId))) {
    throw notFound("No such widget key in this workspace.");
  }
}
