/**
 * The audit log's routes (docs/api/manage.md#audit-log): `GET /v1/manage/audit-log` (Owners and
 * Admins: their workspace's log) and `GET /v1/operator/audit-log` (the operator's own log: the
 * changes outside any workspace). Read only: no route changes or deletes an entry. They sit with
 * the other management routes: the audit folder is the record every capability writes, auth's
 * sign-ins among them, and these routes need auth's guards.
 */
import { z } from "@hono/zod-openapi";
import { AUDIT_ACTIONS, listAuditLog, TARGET_TYPES } from "../audit";
import { type MemberEnv, requireOperator, requireWriter } from "../auth";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { errorResponses, jsonResponse, operations } from "../platform/openapi";
import { listQuery, pageSchema } from "../platform/paging";

const member = operations("Audit log", "memberToken");
const operator = operations("Operator", "operatorToken");

/** The schemas of the audit log, made when the full app builds its routes. */
function auditSchemas() {
  const AuditEntrySchema = z
    .object({
      id: z.string().openapi({ example: "aud_5Jq2VbX8mT1kLp9sW4nZ7c" }),
      at: z.string().openapi({ description: "When the change was made (ISO 8601 UTC)" }),
      actor: z.object({
        type: z.enum(["member", "operator", "widget_key"]),
        id: z.string().openapi({
          description: "A member's `mem_…`, `operator`, or a widget key's record id `wk_…`",
        }),
        name: z.string().optional().openapi({
          description: "The member's or widget key's name when the change was made",
        }),
      }),
      action: z.enum(AUDIT_ACTIONS),
      target: z.object({
        type: z.enum(TARGET_TYPES),
        id: z.string().openapi({ description: "Its id (a secret's name for a secret)" }),
      }),
      ip: z.string().nullable().openapi({
        description: "The client's network, never its address: IPv4 to /24, IPv6 to /48",
        example: "203.0.113.0/24",
      }),
      userAgent: z.string().nullable().openapi({ description: "At most 256 characters" }),
    })
    .openapi("AuditEntry");
  const AuditLogSchema = pageSchema("AuditLog", AuditEntrySchema);
  const AuditQuerySchema = listQuery({
    action: z.enum(AUDIT_ACTIONS).optional(),
    actorId: z.string().min(1).max(64).optional().openapi({
      description: "Only this actor's entries: a member's or widget key's id, or `operator`",
    }),
  });
  return { AuditLogSchema, AuditQuerySchema };
}

/** The audit log's routes: a router built by the full app on first use (src/routes.ts). */
export function auditLogRouter() {
  const { AuditLogSchema, AuditQuerySchema } = auditSchemas();
  const page = {
    200: jsonResponse(AuditLogSchema, "A page of entries, newest first; entries are kept 400 days"),
    ...errorResponses(),
  };
  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...member(
        "get",
        "/v1/manage/audit-log",
        "listAuditLog",
        "The workspace's audit log: who changed what, when, from where (owners and admins)",
      ),
      middleware: [requireWriter],
      request: { query: AuditQuerySchema },
      responses: page,
    },
    async (c) => {
      const { workspaceId } = c.get("member");
      return c.json(await listAuditLog(database(c.env), workspaceId, c.req.valid("query")), 200);
    },
  );

  router.openapi(
    {
      ...operator(
        "get",
        "/v1/operator/audit-log",
        "listOperatorAuditLog",
        "The operator's audit log: workspaces deleted and reseals started",
      ),
      middleware: [requireOperator],
      request: { query: AuditQuerySchema },
      responses: page,
    },
    async (c) => c.json(await listAuditLog(database(c.env), null, c.req.valid("query")), 200),
  );

  return router;
}
