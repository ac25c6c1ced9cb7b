/** Opening a link in the browser: history and a socket ticket (docs/api/conversations.md). */

import { and, eq } from "drizzle-orm";
import { database } from "../db/database";
import { agents, channels } from "../db/schema";
import { openLinkByToken } from "../launch";
import { linkLedger } from "../launch/ledger/client";
import type { AppBindings } from "../platform/env";
import { ApiError, notFound } from "../platform/errors";
import { conversation } from "./conversation/client";
import type { ConversationFacts } from "./conversation/contract";
import { richWires } from "./markdown";
import { CHAT_LIMITS } from "./protocol";
import { sessionRating } from "./rating";
import type { ChatSession } from "./schemas";

/**
 * Opens (pending → active, the conversation starts) or resumes the link of `token`.
 * @param baseUrl origin of the chat host, e.g. `https://launch.example.com`
 * @param channelId the embedding channel: only its links open there (docs/security.md#chat-embedding)
 * @throws ApiError 404 not_found (unknown token, other channel, agent gone), 403 link_unavailable
 *   (`details: [{reason}]`), 429 rate_limited (docs/limits.md#chat)
 */
export async function openChatSession(
  env: AppBindings,
  token: string,
  baseUrl: string,
  channelId?: string,
  now = Date.now(),
): Promise<ChatSession> {
  const db = database(env);
  const ledgerFor = (id: string) => linkLedger(env, id);
  const { link } = await openLinkByToken(db, ledgerFor, token, now, channelId);
  // The channel's rating setting comes with the agent: one D1 query per open, as before ratings.
  const row = await db
    .select({ agent: agents, asksRating: channels.rating })
    .from(agents)
    .leftJoin(channels, and(eq(channels.id, link.channelId), eq(channels.agentId, agents.id)))
    .where(and(eq(agents.id, link.flowId), eq(agents.workspaceId, link.workspaceId)))
    .get();
  const agent = row?.agent;
  // A channel deleted since asks for no rating.
  const asksRating = row?.asksRating ?? false;
  if (!agent || !link.sessionId) throw notFound("The agent of this link no longer exists.");
  const facts: ConversationFacts = {
    sessionId: link.sessionId,
    linkId: link.id,
    workspaceId: link.workspaceId,
    flowId: link.flowId,
    channelId: link.channelId,
    agent: { name: agent.name, instructions: agent.instructions, model: agent.model },
    agentMode: agent.mode,
    greeting: agent.greeting,
    participant: { name: link.participantName },
    participantExternalId: link.participantExternalId,
    parameters: link.parameters,
    globalTask: link.globalTask,
    startedAt: link.startedAt ?? now,
    expiresAt: link.expiresAt,
    // Kept only when asked for: every conversation stores its facts.
    ...(agent.analysis ? { analysis: agent.analysis } : {}),
  };
  const opened = await conversation(env, link.sessionId).open(facts, now);
  if (!opened.opened) {
    throw new ApiError(429, "rate_limited", "This link was opened too often; try again shortly.", {
      details: [{ retryAfterSeconds: opened.retryAfterSeconds }],
      headers: { "retry-after": String(opened.retryAfterSeconds) },
    });
  }
  const view = opened.view;
  const socketOrigin = baseUrl.replace(/^http/, "ws");
  return {
    sessionId: link.sessionId,
    status: view.status,
    agent: { name: agent.name, mode: agent.mode },
    participant: { name: link.participantName },
    messages: await richWires(view.messages),
    ...(view.ticket
      ? {
          socketUrl: `${socketOrigin}/v1/chat/sessions/${link.sessionId}/socket?ticket=${view.ticket}`,
        }
      : {}),
    limits: { ...CHAT_LIMITS },
    rating: sessionRating(asksRating, view.rating),
  };
}
