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

/** Closes a revoked link's chat at once; a failure is logged: the revocation stands anyway. */
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
