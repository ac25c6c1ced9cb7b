/**
 * The event types an endpoint can subscribe to (docs/events.md#event-types), with what each means
 * in a checkbox's words. The API's `EventType` enum is only a type in the browser, so the list is
 * written out here and checked against it both ways: a type the API adds fails the typecheck.
 */
import type { Schemas } from "../../api";

type EventType = Schemas["EventType"];

/** Every `EventType`, in the order of docs/events.md, with its checkbox label. */
export const EVENT_TYPES = [
  { type: "link.created", label: "A link was created" },
  { type: "conversation.started", label: "A link was opened and its conversation started" },
  { type: "conversation.ended", label: "A conversation ended" },
  { type: "link.expired", label: "A link expired unopened" },
  { type: "link.revoked", label: "A link was revoked" },
  { type: "conversation.analyzed", label: "An ended conversation was analysed" },
] as const satisfies readonly { type: EventType; label: string }[];

// Fails to compile when the API's enum has a type the list above lacks.
type Missing = Exclude<EventType, (typeof EVENT_TYPES)[number]["type"]>;
const everyType: [Missing] extends [never] ? true : Missing = true;
void everyType;

/** `events` as the reader sees them: "All events" when every type is chosen. */
export function describeEvents(events: readonly string[]): string {
  if (EVENT_TYPES.every(({ type }) => events.includes(type))) return "All events";
  return events.join(", ");
}
