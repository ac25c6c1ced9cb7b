/**
 * Verifying lifecycle events (docs/events.md#signatures): the Standard Webhooks scheme, checked by
 * its reference library (`standardwebhooks`): the signature over `id.timestamp.body` with the
 * endpoint's `whsec_` secret, and a timestamp within five minutes.
 */
import { Webhook } from "standardwebhooks";
import type { components } from "./schema.js";

/** Any event body: a lifecycle event or `event.test`. */
export type Event = components["schemas"]["Event"];
export type LifecycleEvent = components["schemas"]["LifecycleEvent"];
export type TestEvent = components["schemas"]["TestEvent"];
export type EventType = LifecycleEvent["type"] | TestEvent["type"];
/**
 * Why a conversation ended (`conversation.ended`'s `data.reason`): the same word a workflow's
 * `conversation_event` trigger gets; a revoked open link is `server` (docs/events.md#event-types).
 */
export type EndReason = NonNullable<LifecycleEvent["data"]["reason"]>;
/**
 * An ended conversation's analysis: `conversation.analyzed`'s `data.analysis`, and the look-up's
 * `conversation.analysis` once ready (docs/events.md#conversationanalyzed).
 */
export type ConversationAnalysis = components["schemas"]["ConversationAnalysis"];

/** A delivery that is not from agent-edge, altered, too old, or not an event. */
export class EventVerificationError extends Error {
  override readonly name = "EventVerificationError";
}

/**
 * Checks a delivery's signature and returns its event.
 * @param body the raw request body, exactly as received (verify before parsing)
 * @param headers the request's headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * @param secret the endpoint's `whsec_…` secret
 * @throws EventVerificationError when the signature or timestamp does not verify
 */
export function verifyEvent(
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): Event {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(" ") : value;
  }
  let event: unknown;
  try {
    event = new Webhook(secret).verify(body, flat);
  } catch (error) {
    throw new EventVerificationError(error instanceof Error ? error.message : String(error));
  }
  if (typeof event !== "object" || event === null || !("type" in event) || !("id" in event)) {
    throw new EventVerificationError("The body is not an event.");
  }
  if ((event as { id: unknown }).id !== flat["webhook-id"]) {
    throw new EventVerificationError("The body's id is not the webhook-id.");
  }
  return event as Event;
}
