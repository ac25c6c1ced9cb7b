/** The Conversation Durable Object's client: one object per conversation, named by its session id. */

import type { AppBindings } from "../../platform/env";
import type { Conversation } from "./object";

/** The conversation object of `sessionId`. */
export function conversation(
  env: Pick<AppBindings, "CONVERSATION">,
  sessionId: string,
): DurableObjectStub<Conversation> {
  return env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));
}
