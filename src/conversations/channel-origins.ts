/** The allowed origins of a widget channel, read for its embedded chat (docs/security.md#chat-embedding). */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { channels } from "../db/schema";
import { CHANNEL_ID } from "./embedding";

/** The allowed origins of a widget channel; null when no channel has this id. */
export async function channelOrigins(
  db: DrizzleD1Database,
  channelId: string,
): Promise<string[] | null> {
  if (!CHANNEL_ID.test(channelId)) return null;
  const row = await db
    .select({ allowedOrigins: channels.allowedOrigins })
    .from(channels)
    .where(eq(channels.id, channelId))
    .get();
  return row ? row.allowedOrigins : null;
}
