/** The audit log's D1 table (docs/security.md#audit-log): nothing secret stored; epoch ms. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./schema";

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    /** The workspace whose log holds the entry; null for the operator's own log. */
    workspaceId: text("workspace_id").references(() => workspaces.id),
    at: integer("at").notNull(),
    actorType: text("actor_type", { enum: ["member", "operator", "widget_key"] }).notNull(),
    actorId: text("actor_id").notNull(),
    /** The member's or widget key's name when the change was made; null for the operator. */
    actorName: text("actor_name"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** The client's address truncated to its network (IPv4 /24, IPv6 /48); null when unknown. */
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [
    // Newest first per log, and each filter with it; `at` alone for the pruning of old entries.
    index("audit_log_workspace_at").on(t.workspaceId, t.at, t.id),
    index("audit_log_workspace_action").on(t.workspaceId, t.action, t.at, t.id),
    index("audit_log_workspace_actor").on(t.workspaceId, t.actorId, t.at, t.id),
    index("audit_log_at").on(t.at),
  ],
);
