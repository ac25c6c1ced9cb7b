/** The Conversation Durable Object's client: one object per conversation, named by its session id. */

import type { AppBindings } from "../../platform/env";
import type { ConversationContract } from "./contract";

/** The conversation object of `sessionId`. */
export function conversation(
  env: Pick<AppBindings, "CONVERSATION">,
  sessionId: string,
): DurableObjectStub<ConversationContract> {
  return env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));
}
