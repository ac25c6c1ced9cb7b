/**
 * D1 tables of dashboard sign-in (docs/dashboard.md#sign-in): one-time sign-in links and the
 * sessions they open. Only SHA-256 digests of their tokens are stored; times are epoch ms.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members, workspaces } from "./schema";

/** A one-time sign-in link: valid 15 minutes, used once. */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("sign_in_links_member").on(t.memberId)],
);

/** A signed-in browser: 12 hours idle, 7 days at most; ended by sign-out or the member's removal. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_member").on(t.memberId)],
);
