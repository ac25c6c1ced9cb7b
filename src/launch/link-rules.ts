/**
 * The rules of a link, shared by the Worker and the link ledger: key scope, agent and widget
 * channel, parameters (docs/api/launch.md#order-of-checks), and the D1 reads behind them.
 */
import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { WidgetKeyPrincipal } from "../auth";
import { compiledRead } from "../db/compiled";
import { agents, channels, type Link, links, type ParameterDefinition } from "../db/schema";
import type { LedgerResult, Refusal } from "./ledger/contract";
import { parameterProblems } from "./parameters";

/**
 * Whose links a caller may see and change: the workspace's, of the agents a widget key is limited
 * to (`flowIds`), or of every agent (`null`: an unlimited key, or a member of the workspace through
 * the management API, docs/api/manage.md#links).
 */
export type LinkScope = Pick<WidgetKeyPrincipal, "workspaceId" | "flowIds">;

/** The link as the scope may see it: 404 not_found outside its workspace, 403 forbidden_flow. */
export function linkInScope(scope: LinkScope, link: Link | undefined): LedgerResult<Link> {
  if (!link || link.workspaceId !== scope.workspaceId)
    return { ok: false, refusal: LINK_NOT_FOUND };
  const refusal = refuseFlow(scope, link.flowId);
  return refusal ? { ok: false, refusal } : { ok: true, value: link };
}

/** 403 forbidden_flow when the key is limited to other agents; null when allowed. */
export function refuseFlow(key: Pick<LinkScope, "flowIds">, flowId: string): Refusal | null {
  if (key.flowIds === null || key.flowIds.includes(flowId)) return null;
  return { status: 403, code: "forbidden_flow", message: "This key is limited to other agents." };
}

/**
 * 404 widget_not_found when the agent has no such widget channel (`definitions` undefined), else
 * 400 invalid_parameters listing every problem; null when the link may be created.
 */
export function validateNewLink(
  definitions: ParameterDefinition[] | undefined,
  parameters: Record<string, unknown>,
): Refusal | null {
  if (!definitions) {
    return {
      status: 404,
      code: "widget_not_found",
      message: "No such agent in this workspace, or it has no widget channel with this id.",
    };
  }
  const problems = parameterProblems(definitions, parameters);
  if (problems.length === 0) return null;
  return {
    status: 400,
    code: "invalid_parameters",
    message: "Some parameters were refused.",
    details: problems,
  };
}

/** The agent's parameter definitions when it has the widget channel in the workspace. */
export async function findAgentParameters(
  db: DrizzleD1Database,
  workspaceId: string,
  flowId: string,
  channelId: string,
): Promise<ParameterDefinition[] | undefined> {
  const row = await db
    .select({ parameters: agents.parameters })
    .from(channels)
    .innerJoin(agents, eq(agents.id, channels.agentId))
    .where(
      and(
        eq(channels.id, channelId),
        eq(channels.agentId, flowId),
        eq(channels.workspaceId, workspaceId),
        eq(channels.type, "widget"),
      ),
    )
    .get();
  return row?.parameters;
}

const linkById = compiledRead((db) =>
  db
    .select()
    .from(links)
    .where(and(eq(links.id, sql.placeholder("id")), eq(links.workspaceId, sql.placeholder("ws"))))
    .prepare(),
);

/** The link by id within the workspace, read from D1; undefined when there is none. */
export async function findLinkRow(
  db: DrizzleD1Database,
  workspaceId: string,
  linkId: string,
): Promise<Link | undefined> {
  return linkById(db).get({ id: linkId, ws: workspaceId });
}

/**
 * The D1 condition for the workspace's pending links whose expiry meets `expiry` (unexpired ones
 * for the pending cap, expired ones for the ledger's alarm, docs/api/launch.md#pending-links).
 */
export function pendingLinksWhere(workspaceId: string, expiry: SQL): SQL | undefined {
  return and(eq(links.workspaceId, workspaceId), eq(links.status, "pending"), expiry);
}

/** The query of the workspace's pending, unexpired links: ids and expiries (the index alone). */
export function pendingLoad(db: DrizzleD1Database, workspaceId: string, now: number) {
  return db
    .select({ id: links.id, expiresAt: links.expiresAt })
    .from(links)
    .where(pendingLinksWhere(workspaceId, gt(links.expiresAt, now)));
}

/** Ids and expiries of the workspace's pending, unexpired links. */
export async function loadPendingLinks(
  db: DrizzleD1Database,
  workspaceId: string,
  now: number,
): Promise<{ id: string; expiresAt: number }[]> {
  return pendingLoad(db, workspaceId, now);
}

/** 409 too_many_pending_links: the workspace holds `pendingLinks`, its cap (docs/api/launch.md#pending-links). */
export const tooManyPending = (pendingLinks: number): Refusal => ({
  status: 409,
  code: "too_many_pending_links",
  message: `The workspace already has ${pendingLinks} links that nobody has opened.`,
});

/** 404 not_found: no such link in the key's workspace. */
export const LINK_NOT_FOUND: Refusal = {
  status: 404,
  code: "not_found",
  message: "No such link in this workspace.",
};
