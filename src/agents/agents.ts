/**
 * Agents (conversation flows) and their widget channels (docs/api/manage.md). The agent's parameter
 * definitions are what link parameters are validated against (docs/api/launch.md#parameters).
 */

import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { canonicalOrigin } from "../conversations/embedding";
import { workspaceRow } from "../db/rows";
import { type Agent, agents, type Channel, channels, type ParameterDefinition } from "../db/schema";
import { widgetSnippetTemplate } from "../platform/html";
import { isoTime, newId } from "../platform/ids";
import { idsOf, type Page, type PageQuery, readPage } from "../platform/paging";
import type { ChannelView, CreateChannel, UpdateChannel } from "./channel-schemas";
import type { AgentSchema, CreateAgent, UpdateAgent } from "./schemas";

type AgentView = z.infer<typeof AgentSchema>;

function toAgent(row: Agent): AgentView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    greeting: row.greeting,
    instructions: row.instructions,
    model: row.model,
    parameters: row.parameters,
    analysis: row.analysis ?? null,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

function toChannel(row: Channel, baseUrl: string): ChannelView {
  return {
    id: row.id,
    agentId: row.agentId,
    type: row.type,
    name: row.name,
    allowedOrigins: row.allowedOrigins,
    rating: row.rating,
    snippet: widgetSnippetTemplate(baseUrl, row.agentId, row.id),
    createdAt: isoTime(row.createdAt),
  };
}

async function findAgent(
  db: DrizzleD1Database,
  workspaceId: string,
  agentId: string,
): Promise<Agent> {
  return workspaceRow(db, agents, workspaceId, agentId, "No such agent in this workspace.");
}

/** Creates an agent of the workspace (docs/api/manage.md#agents-and-channels). */
export async function createAgent(
  db: DrizzleD1Database,
  workspaceId: string,
  input: CreateAgent,
  now = Date.now(),
): Promise<AgentView> {
  const row: Agent = {
    id: newId("agt"),
    workspaceId,
    name: input.name,
    mode: input.mode,
    greeting: input.greeting ?? null,
    instructions: input.instructions ?? null,
    model: input.model ?? null,
    parameters: input.parameters as ParameterDefinition[],
    analysis: input.analysis ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(agents).values(row);
  return toAgent(row);
}

/** The agent by id. @throws ApiError 404 not_found outside the workspace */
export async function getAgent(
  db: DrizzleD1Database,
  workspaceId: string,
  agentId: string,
): Promise<AgentView> {
  return toAgent(await findAgent(db, workspaceId, agentId));
}

/**
 * A page of the workspace's agents, oldest first (then by id), docs/api/README.md#lists-and-paging.
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listAgents(
  db: DrizzleD1Database,
  workspaceId: string,
  query: PageQuery,
): Promise<Page<AgentView>> {
  const where = eq(agents.workspaceId, workspaceId);
  return readPage(db, agents, where, query, { ids: AGENT_ID, order: "asc" }, toAgent);
}

const AGENT_ID = idsOf("agt");
const CHANNEL_ID = idsOf("ch");

/** Forgets an agent's cached parameter definitions (the link ledger's `forgetAgent`). */
type ForgetAgent = (agentId: string) => Promise<void>;

/** Changes the given fields. Links already created keep the parameters they were validated with. */
export async function updateAgent(
  db: DrizzleD1Database,
  forgetAgent: ForgetAgent,
  workspaceId: string,
  agentId: string,
  input: UpdateAgent,
  now = Date.now(),
): Promise<AgentView> {
  const current = await findAgent(db, workspaceId, agentId);
  const next: Agent = {
    ...current,
    ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
    updatedAt: now,
  };
  await db
    .update(agents)
    .set({
      name: next.name,
      mode: next.mode,
      greeting: next.greeting ?? null,
      instructions: next.instructions ?? null,
      model: next.model ?? null,
      parameters: next.parameters,
      analysis: next.analysis ?? null,
      updatedAt: now,
    })
    .where(eq(agents.id, agentId));
  await forgetAgent(agentId);
  return toAgent(next);
}

/** Deletes the agent and its channels; new links for it get 404 widget_not_found. */
export async function deleteAgent(
  db: DrizzleD1Database,
  forgetAgent: ForgetAgent,
  workspaceId: string,
  agentId: string,
): Promise<void> {
  await findAgent(db, workspaceId, agentId);
  await db.batch([
    db.delete(channels).where(eq(channels.agentId, agentId)),
    db.delete(agents).where(eq(agents.id, agentId)),
  ]);
  await forgetAgent(agentId);
}

/**
 * Allowed origins as stored: canonical, each once, in the order given (docs/widget.md#allowed-sites).
 * The request schema has refused any that is not an origin.
 */
function storedOrigins(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => canonicalOrigin(value) ?? value))];
}

/** Adds a widget channel to the agent; its `snippet` is the embed tag. @throws 404 not_found */
export async function createChannel(
  db: DrizzleD1Database,
  workspaceId: string,
  agentId: string,
  input: CreateChannel,
  baseUrl: string,
  now = Date.now(),
): Promise<ChannelView> {
  await findAgent(db, workspaceId, agentId);
  const row: Channel = {
    id: newId("ch"),
    workspaceId,
    agentId,
    type: input.type,
    name: input.name,
    allowedOrigins: storedOrigins(input.allowedOrigins ?? []),
    rating: input.rating ?? true,
    createdAt: now,
  };
  await db.insert(channels).values(row);
  return toChannel(row, baseUrl);
}

/**
 * Changes a channel's name, allowed origins or rating setting; the embedded chat's policy and the widget's answer
 * follow at once (the widget's, cached by browsers, within 60 s).
 * @throws ApiError 404 not_found (no such agent, or no such channel of it, in the workspace)
 */
export async function updateChannel(
  db: DrizzleD1Database,
  workspaceId: string,
  agentId: string,
  channelId: string,
  input: UpdateChannel,
  baseUrl: string,
): Promise<ChannelView> {
  const missing = "No such channel of this agent in this workspace.";
  const ofAgent = eq(channels.agentId, agentId);
  const current = await workspaceRow(db, channels, workspaceId, channelId, missing, ofAgent);
  const next: Channel = {
    ...current,
    name: input.name ?? current.name,
    allowedOrigins: input.allowedOrigins
      ? storedOrigins(input.allowedOrigins)
      : current.allowedOrigins,
    rating: input.rating ?? current.rating,
  };
  await db
    .update(channels)
    .set({ name: next.name, allowedOrigins: next.allowedOrigins, rating: next.rating })
    .where(eq(channels.id, channelId));
  return toChannel(next, baseUrl);
}

/**
 * A page of the agent's widget channels, oldest first (then by id).
 * @throws ApiError 404 not_found outside the workspace, 400 invalid_request for a bad cursor
 */
export async function listChannels(
  db: DrizzleD1Database,
  workspaceId: string,
  agentId: string,
  baseUrl: string,
  query: PageQuery,
): Promise<Page<ChannelView>> {
  await findAgent(db, workspaceId, agentId);
  const where = and(eq(channels.agentId, agentId), eq(channels.workspaceId, workspaceId));
  const list = { ids: CHANNEL_ID, order: "asc" } as const;
  return readPage(db, channels, where, query, list, (row) => toChannel(row, baseUrl));
}
