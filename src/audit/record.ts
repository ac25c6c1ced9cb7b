/**
 * Writing the audit log (docs/security.md#audit-log): `recordAudit` writes one entry, and
 * `audited` marks a route of the management or operator API as a change, so its success writes
 * one. The entry is written just after the change succeeded, not in its D1 batch: the changes are
 * made by many services, some in Durable Objects, and threading an insert into each would tie them
 * all to the log. A crash between the change and the entry loses the entry; the entry never names
 * a change that failed.
 */
import { inArray, lt, type SQL, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { auditLog } from "../db/audit-tables";
import { database } from "../db/database";
import { members, widgetKeys } from "../db/schema";
import type { AppBindings } from "../platform/env";
import { newId } from "../platform/ids";
import { log } from "../platform/log";
import type { AuditAction, AuditActor, AuditEntry, TargetType } from "./actions";
import { clientNetwork, userAgentOf } from "./client";

/** Entries are kept this long (ms): 400 days. */
export const AUDIT_RETENTION_MS = 400 * 86_400_000;
/** Entries past their 400 days deleted with each new one, oldest first, whatever their workspace. */
const PRUNED_PER_WRITE = 20;

/** The actor's name as it is now, read in the insert itself: no round trip of its own. */
function nameOf(actor: AuditActor): SQL | null {
  if (actor.type === "member") {
    return sql`(SELECT ${members.name} FROM ${members} WHERE ${members.id} = ${actor.id})`;
  }
  if (actor.type === "widget_key") {
    return sql`(SELECT ${widgetKeys.name} FROM ${widgetKeys} WHERE ${widgetKeys.id} = ${actor.id})`;
  }
  return null;
}

/**
 * Writes one entry, with the time, the client's network (`CF-Connecting-IP` truncated) and its user
 * agent (capped) read from `request`, and the actor's name; in the same batch, deletes up to 20
 * entries older than 400 days. Never throws: a failure is logged (`audit_not_recorded`) and the
 * change it describes stands.
 * @param now epoch ms
 */
export async function recordAudit(
  env: AppBindings,
  request: Request,
  entry: AuditEntry,
  now = Date.now(),
): Promise<void> {
  const db = database(env);
  try {
    const expired = db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(lt(auditLog.at, now - AUDIT_RETENTION_MS))
      .orderBy(auditLog.at)
      .limit(PRUNED_PER_WRITE);
    await db.batch([
      db.insert(auditLog).values({
        id: newId("aud"),
        workspaceId: entry.workspaceId,
        at: now,
        actorType: entry.actor.type,
        actorId: entry.actor.id,
        actorName: nameOf(entry.actor),
        action: entry.action,
        targetType: entry.target.type,
        targetId: entry.target.id,
        ip: clientNetwork(request.headers.get("cf-connecting-ip")),
        userAgent: userAgentOf(request.headers.get("user-agent")),
      }),
      db.delete(auditLog).where(inArray(auditLog.id, expired)),
    ]);
  } catch (error) {
    log("error", "audit_not_recorded", {
      action: entry.action,
      workspaceId: entry.workspaceId,
      error,
    });
  }
}

/**
 * Where an entry's id comes from: a path parameter (`param:id`), a field of the JSON answer
 * (`response:id`, `response:workspace.id`) or of the validated JSON body (`json:memberId`), or the
 * caller itself (`actor`). A list is tried in order: the first found.
 */
export type IdSource = `param:${string}` | `response:${string}` | `json:${string}` | "actor";

/** How a route's success is recorded. */
export type AuditSpec = {
  target: [TargetType, IdSource | IdSource[]];
  /** The operator's routes: the workspace the entry goes to; none means the operator's own log. */
  workspace?: IdSource;
  /** Only these success statuses are changes (a preview link given again is not); default any 2xx. */
  statuses?: number[];
};

type Principals = {
  member?: { memberId: string; workspaceId: string };
  widgetKey?: { keyId: string; workspaceId: string };
};

/** The value at a dotted path of a JSON answer, when it is a string. */
function field(value: unknown, path: string): string | undefined {
  let at = value;
  for (const key of path.split(".")) {
    at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  }
  return typeof at === "string" ? at : undefined;
}

/** The middleware `audited` puts first on a route: after a success, writes its entry. */
function recorder(action: AuditAction, spec: AuditSpec, operator: boolean): MiddlewareHandler {
  const sources = [spec.target[1], spec.workspace ?? "actor"].flat();
  const readsAnswer = sources.some((source) => source.startsWith("response:"));
  return async (c, next) => {
    await next();
    const status = c.res.status;
    if (spec.statuses ? !spec.statuses.includes(status) : status < 200 || status > 299) return;
    const answer = readsAnswer
      ? await c.res
          .clone()
          .json()
          .catch(() => null)
      : null;
    const { member, widgetKey } = c.var as Principals;
    const actor: AuditActor = operator
      ? { type: "operator", id: "operator" }
      : member
        ? { type: "member", id: member.memberId }
        : { type: "widget_key", id: widgetKey?.keyId ?? "" };
    const one = (source: IdSource): string | undefined => {
      if (source === "actor") return actor.id;
      const [kind, path = ""] = source.split(/:(.*)/s);
      if (kind === "param") return c.req.param(path);
      if (kind === "json") return field((c.req.valid as (target: string) => unknown)("json"), path);
      return field(answer, path);
    };
    const idOf = (sources: IdSource | IdSource[]) =>
      [sources]
        .flat()
        .map(one)
        .find((id) => id !== undefined && id !== "");
    const targetId = idOf(spec.target[1]);
    // Undefined: not found, which a route's own success never gives; null: the operator's log.
    let workspaceId: string | null | undefined = (member ?? widgetKey)?.workspaceId;
    if (operator) workspaceId = spec.workspace ? idOf(spec.workspace) : null;
    if (!targetId || actor.id === "" || workspaceId === undefined) {
      log("error", "audit_not_recorded", { action, reason: "no target, actor or workspace" });
      return;
    }
    await recordAudit(c.env, c.req.raw, {
      workspaceId,
      actor,
      action,
      target: { type: spec.target[0], id: targetId },
    });
  };
}

type AuditableRoute = {
  security?: Record<string, string[]>[];
  middleware?: MiddlewareHandler | MiddlewareHandler[];
};

/**
 * A route config (for `createRoute`) whose successful answers are recorded as `action`: its
 * OpenAPI operation names the action (`x-audit-action`) and a recorder runs first among its
 * middleware. The actor is the operator on routes secured by the operator token, else the member
 * or widget key that authenticated the call.
 */
export function audited<R extends AuditableRoute>(
  action: AuditAction,
  spec: AuditSpec,
  route: R,
): R {
  const operator = (route.security ?? []).some((scheme) => "operatorToken" in scheme);
  const middleware = route.middleware === undefined ? [] : [route.middleware].flat();
  return {
    ...route,
    "x-audit-action": action,
    middleware: [recorder(action, spec, operator), ...middleware],
  };
}
