/** The person's rating of an ended conversation (docs/api/conversations.md#rating). */

import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "../db/database";
import { channels, links } from "../db/schema";
import { sha256Hex } from "../platform/crypto";
import type { AppBindings } from "../platform/env";
import { ApiError, notFound } from "../platform/errors";
import { isoTime } from "../platform/ids";
import { conversation } from "./conversation/client";
import type { ConversationRating } from "./conversation/contract";
import type { ChatSession, RateConversation, Rating } from "./schemas";

/** Whether the widget channel asks for ratings; a channel deleted since asks for none. */
export async function channelAsksRating(
  db: DrizzleD1Database,
  channelId: string,
): Promise<boolean> {
  const row = await db
    .select({ rating: channels.rating })
    .from(channels)
    .where(eq(channels.id, channelId))
    .get();
  return row?.rating ?? false;
}

/** The session answer's `rating`: the channel's setting and the rating given, if any. */
export function sessionRating(
  enabled: boolean,
  given: ConversationRating | undefined,
): ChatSession["rating"] {
  return { enabled, score: given?.score ?? null, ratedAt: given ? isoTime(given.ratedAt) : null };
}

/**
 * Keeps the rating of the link of `token`, once, after its conversation ended and until the link
 * expires; the ledger records it with `conversation.rated` and workflows listening to that event
 * start (both at least once, through the conversation's outbox).
 * @returns the kept rating (`ratedAt` ISO 8601)
 * @throws ApiError 404 not_found (unknown token), 403 link_unavailable (`details: [{reason}]`,
 *   expired or revoked), 409 rating_disabled (the channel asks for none), 409
 *   conversation_not_ended (never opened), 429 rate_limited (counted with the link's opens,
 *   docs/limits.md#chat), 409 conversation_not_ended (still in progress), 409 already_rated
 */
export async function rateConversation(
  env: AppBindings,
  input: RateConversation,
  now = Date.now(),
): Promise<Rating> {
  const db = database(env);
  const link = await db
    .select()
    .from(links)
    .where(eq(links.tokenHash, await sha256Hex(input.token)))
    .get();
  if (!link) throw notFound("No link has this token.");
  const unavailable = link.status === "revoked" ? "revoked" : link.expiresAt <= now && "expired";
  if (unavailable) {
    throw new ApiError(
      403,
      "link_unavailable",
      `This link can no longer be rated: it is ${unavailable}.`,
      {
        details: [{ reason: unavailable }],
      },
    );
  }
  if (!(await channelAsksRating(db, link.channelId))) {
    throw new ApiError(409, "rating_disabled", "This chat does not ask for ratings.");
  }
  if (!link.sessionId || link.startedAt === null) throw notEnded();
  const comment = input.comment?.trim() || null;
  const result = await conversation(env, link.sessionId).rate({ score: input.score, comment }, now);
  if (result.ok) return { ...result.rating, ratedAt: isoTime(result.rating.ratedAt) };
  if (result.reason === "not_ended") throw notEnded();
  if (result.reason === "already_rated") {
    throw new ApiError(409, "already_rated", "This conversation was rated already.");
  }
  const wait = result.retryAfterSeconds ?? 60;
  throw new ApiError(429, "rate_limited", "This link was used too often; try again shortly.", {
    details: [{ retryAfterSeconds: wait }],
    headers: { "retry-after": String(wait) },
  });
}

const notEnded = () =>
  new ApiError(409, "conversation_not_ended", "The conversation can be rated once it has ended.");
