/** The Conversation Durable Object's client: one object per conversation, named by its session id. */

import type { AppBindings } from "../../platform/env";
import { log } from "../../platform/log";
import type { ConversationContract } from "./contract";

/** The conversation object of `sessionId`. */
export function conversation(
  env: Pick<AppBindings, "CONVERSATION">,
  sessionId: string,
): DurableObjectStub<ConversationContract> {
  return env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));
}

/**
 * Closes the chat of a revoked link at once (its sockets get `revoked`). A failure is logged and
 * not thrown: the revocation stands, and the conversation refuses the link when next opened.
 */
export async function closeRevokedConversation(
  env: Pick<AppBindings, "CONVERSATION">,
  sessionId: string,
  revokedAt: number,
): Promise<void> {
  try {
    await conversation(env, sessionId).revoke(revokedAt);
  } catch (error) {
    log("error", "conversation_revoke_failed", { error });
  }
}
