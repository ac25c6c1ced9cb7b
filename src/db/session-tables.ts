/** D1 tables of dashboard sign-in (docs/dashboard.md#sign-in): tokens as SHA-256 only; epoch ms. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { members, workspaceIdColumn } from "./schema";

/** The `member_id` column of a row that belongs to one member. */
const memberIdColumn = () =>
  text("member_id")
    .notNull()
    .references(() => members.id);

/** A one-time sign-in link: valid 15 minutes, used once. */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: text("id").primaryKey(),
    memberId: memberIdColumn(),
    workspaceId: workspaceIdColumn(),
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
    memberId: memberIdColumn(),
    workspaceId: workspaceIdColumn(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_member").on(t.memberId)],
);

/** A member's passkey (WebAuthn credential): its public key only; signs in without a link. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    memberId: memberIdColumn(),
    workspaceId: workspaceIdColumn(),
    /** The credential id, base64url, as the authenticator gave it. */
    credentialId: text("credential_id").notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_member").on(t.memberId)],
);

/** A WebAuthn challenge handed out for one ceremony: used once, valid 5 minutes. */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  /** The member registering; null for a sign-in (the passkey says who). */
  memberId: text("member_id"),
  purpose: text("purpose", { enum: ["register", "sign-in"] }).notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
