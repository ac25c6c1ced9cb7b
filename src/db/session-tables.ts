/** D1 tables of dashboard sign-in (docs/dashboard.md#sign-in): tokens as SHA-256 only; epoch ms. */
import {
  index,
  integer,
  type SQLiteColumnBuilderBase,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { members, workspaceIdColumn } from "./schema";

/** The `member_id` column of a row that belongs to one member. */
const memberIdColumn = () =>
  text("member_id")
    .notNull()
    .references(() => members.id);

/**
 * A table of rows that each belong to one member: `id`, `member_id` and `workspace_id` first, then
 * `columns`, with the index `{name}_member` on `member_id`.
 */
function memberTable<N extends string, C extends Record<string, SQLiteColumnBuilderBase>>(
  name: N,
  columns: C,
) {
  return sqliteTable(
    name,
    {
      id: text("id").primaryKey(),
      memberId: memberIdColumn(),
      workspaceId: workspaceIdColumn(),
      ...columns,
    },
    (t) => [index(`${name}_member`).on(t.memberId)],
  );
}

/** A one-time sign-in link: valid 15 minutes, used once. */
export const signInLinks = memberTable("sign_in_links", {
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

/** A signed-in browser: 12 hours idle, 7 days at most; ended by sign-out or the member's removal. */
export const sessions = memberTable("sessions", {
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: integer("created_at").notNull(),
  lastSeenAt: integer("last_seen_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/** A member's passkey (WebAuthn credential): its public key only; signs in without a link. */
export const passkeys = memberTable("passkeys", {
  /** The credential id, base64url, as the authenticator gave it. */
  credentialId: text("credential_id").notNull().unique(),
  /** The COSE public key, base64url. */
  publicKey: text("public_key").notNull(),
  counter: integer("counter").notNull(),
  transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
});

/** A WebAuthn challenge handed out for one ceremony: used once, valid 5 minutes. */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  /** The member registering; null for a sign-in (the passkey says who). */
  memberId: text("member_id"),
  purpose: text("purpose", { enum: ["register", "sign-in"] }).notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
