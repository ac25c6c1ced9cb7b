/** D1 tables (Drizzle): keys and tokens as SHA-256 hex only (docs/security.md); times epoch ms. */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import type { JsonValue } from "../platform/json";
import type { WorkflowDefinition, WorkflowNote } from "../workflows/nodes";
import type { Retention } from "./retention";

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
  /** What it keeps how long, where it set it (docs/security.md#retention); null: the defaults. */
  retention: text("retention", { mode: "json" }).$type<Partial<Retention>>(),
});

/** The `workspace_id` column of a table whose rows each belong to one workspace. */
export const workspaceIdColumn = () =>
  text("workspace_id")
    .notNull()
    .references(() => workspaces.id);

/** The first columns of a table whose rows each belong to one workspace: `id`, `workspace_id`. */
export const workspaceRowColumns = () => ({
  id: text("id").primaryKey(),
  workspaceId: workspaceIdColumn(),
});

export const members = sqliteTable(
  "members",
  {
    ...workspaceRowColumns(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    /** Set when the member is removed; their token stops working, keys they created do not. */
    removedAt: integer("removed_at"),
  },
  (t) => [
    uniqueIndex("members_workspace_email_active")
      .on(t.workspaceId, t.email)
      .where(sql`removed_at IS NULL`),
  ],
);

export const widgetKeys = sqliteTable(
  "widget_keys",
  {
    ...workspaceRowColumns(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    keyPrefix: text("key_prefix").notNull(),
    /** JSON array of agent ids the key is limited to; null means every agent of the workspace. */
    flowIds: text("flow_ids", { mode: "json" }).$type<string[] | null>(),
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
    /** Member id of the creator; kept after the member is removed (docs/api/manage.md#widget-keys). */
    createdBy: text("created_by").notNull(),
    revokedAt: integer("revoked_at"),
    /** When the key last authenticated a call, to the minute (docs/api/manage.md#widget-keys). */
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("widget_keys_workspace").on(t.workspaceId)],
);

export type ParameterDefinition = {
  name: string;
  type: "string" | "number" | "integer" | "boolean";
  required: boolean;
  options?: (string | number | boolean)[];
  description?: string;
};

/** An agent's analysis of its ended conversations (docs/api/manage.md#analysis). */
export type AnalysisSettings = {
  summary: boolean;
  fields: {
    name: string;
    type: "string" | "number" | "integer" | "boolean";
    description: string;
    options?: string[];
  }[];
};

/** A conversation's analysis as stored and shown (docs/events.md#conversationanalyzed). */
export type ConversationAnalysis = {
  status: "completed" | "failed";
  summary: string | null;
  data: Record<string, string | number | boolean | null>;
  problems: { field: string; message: string }[];
};

export const agents = sqliteTable(
  "agents",
  {
    ...workspaceRowColumns(),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["initiator", "responder"] }).notNull(),
    greeting: text("greeting"),
    instructions: text("instructions"),
    /** Workers AI model of the agent's brain; null: the default (docs/api/conversations.md). */
    model: text("model"),
    parameters: text("parameters", { mode: "json" }).$type<ParameterDefinition[]>().notNull(),
    /** What to learn from each ended conversation; null for none (docs/api/manage.md#analysis). */
    analysis: text("analysis", { mode: "json" }).$type<AnalysisSettings>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("agents_workspace").on(t.workspaceId)],
);

export const channels = sqliteTable(
  "channels",
  {
    ...workspaceRowColumns(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["widget"] }).notNull(),
    name: text("name").notNull(),
    /** Canonical origins that may embed the chat; empty for any (docs/widget.md#allowed-sites). */
    allowedOrigins: text("allowed_origins", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default([]),
    /** Whether the chat asks for a rating when the conversation ends (docs/api/conversations.md#rating). */
    rating: integer("rating", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("channels_agent").on(t.agentId)],
);

/**
 * Stored link states. A pending link past its expiresAt is `expired` at once (derived); the ledger's
 * alarm then stores `expired` when it records `link.expired`, which takes the link out of the pending
 * range of `links_workspace_status_created` (docs/performance.md#a-links-rows-over-its-life).
 */
export type StoredLinkStatus = "pending" | "active" | "ended" | "revoked" | "expired";
/** Every stored state: a list newest first merges one range of the status index per state. */
export const STORED_LINK_STATUSES: readonly StoredLinkStatus[] = [
  "pending",
  "active",
  "ended",
  "revoked",
  "expired",
];

export const links = sqliteTable(
  "links",
  {
    ...workspaceRowColumns(),
    flowId: text("flow_id").notNull(),
    channelId: text("channel_id").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    status: text("status", { enum: ["pending", "active", "ended", "revoked", "expired"] })
      .$type<StoredLinkStatus>()
      .notNull(),
    parameters: text("parameters", { mode: "json" }).$type<Record<string, JsonValue>>().notNull(),
    participantName: text("participant_name"),
    participantExternalId: text("participant_external_id"),
    globalTask: text("global_task"),
    /** The customer's own key-value pairs; never shown to the person or the agent. */
    metadata: text("metadata", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull()
      .default({}),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Widget key record id that created the link; a member's id for their dashboard preview. */
    createdByKey: text("created_by_key").notNull(),
    sessionId: text("session_id"),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    revokedAt: integer("revoked_at"),
    /** The ended conversation's analysis once ready (docs/api/launch.md#analysis); erased with the row. */
    analysis: text("analysis", { mode: "json" }).$type<ConversationAnalysis>(),
    /** The person's rating after the end (docs/api/conversations.md#rating): 1 to 5, once. */
    ratingScore: integer("rating_score"),
    ratingComment: text("rating_comment"),
    ratedAt: integer("rated_at"),
  },
  (t) => [
    // Four index entries a create (docs/performance.md#a-links-rows-over-its-life): the id, the token, and
    // the list's two orders every link needs from its start (newest first, id breaking ties). The
    // status order serves the list unfiltered too (one range per state, merged), the pending cap's
    // load and the expiry alarm (pending links only: the alarm stores `expired`).
    index("links_workspace_external_created").on(
      t.workspaceId,
      t.participantExternalId,
      t.createdAt,
      t.id,
    ),
    // The agent and the expiry ride at the end, so the pending range serves an agent's pending
    // links and the expiry alarm from the index alone (covering), not a row per pending link.
    index("links_workspace_status_created").on(
      t.workspaceId,
      t.status,
      t.createdAt,
      t.id,
      t.flowId,
      t.expiresAt,
    ),
    // By agent, past pending only: written when a link opens, is revoked or expires; the pending
    // range of the status order serves the agent filter's pending links (at most the pending cap).
    index("links_workspace_flow_settled")
      .on(t.workspaceId, t.flowId, t.createdAt, t.id)
      .where(sql`status <> 'pending'`),
    // Metrics by opening and ending time (docs/operations.md#metrics); partial: a create writes none.
    index("links_workspace_started")
      .on(t.workspaceId, t.startedAt)
      .where(sql`started_at IS NOT NULL`),
    index("links_workspace_ended").on(t.workspaceId, t.endedAt).where(sql`ended_at IS NOT NULL`),
  ],
);

/** Workspace secrets (`{{secrets.NAME}}`, docs/security.md): sealed, bound to workspace and name. */
export const secrets = sqliteTable(
  "secrets",
  {
    workspaceId: workspaceIdColumn(),
    name: text("name").notNull(),
    ciphertext: text("ciphertext").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.name] })],
);

/** Workflows (docs/api/manage.md, docs/api/webhooks.md); definitions validated, defaults filled. */
export const workflows = sqliteTable(
  "workflows",
  {
    ...workspaceRowColumns(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    status: text("status", { enum: ["running", "stopped"] }).notNull(),
    definition: text("definition", { mode: "json" }).$type<WorkflowDefinition>().notNull(),
    /** Sticky notes of the canvas: apart from the definition, so runs never carry them. */
    notes: text("notes", { mode: "json" }).$type<WorkflowNote[]>().notNull().default([]),
    /** Runner objects taking its calls now, cached with its id (docs/scaling.md#runner-shards). */
    runnerShards: integer("runner_shards").notNull().default(1),
    /** The most it ever had: its executions and request log may be on any of those. */
    runnerShardsEver: integer("runner_shards_ever").notNull().default(1),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("workflows_workspace_slug").on(t.workspaceId, t.slug)],
);

export type Workspace = typeof workspaces.$inferSelect;
export type Member = typeof members.$inferSelect;
export type WidgetKey = typeof widgetKeys.$inferSelect;
export type Agent = typeof agents.$inferSelect;
export type Channel = typeof channels.$inferSelect;
export type Link = typeof links.$inferSelect;
export type NewLink = typeof links.$inferInsert;
export type Secret = typeof secrets.$inferSelect;
export type Workflow = typeof workflows.$inferSelect;
