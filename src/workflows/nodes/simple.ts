/**
 * The node types with a few plain settings (docs/api/webhooks.md#definition): the
 * conversation_event trigger (docs/events.md), condition, set and wait.
 */
import { z } from "@hono/zod-openapi";
import type { JsonValue } from "../../platform/json";
import { isPlainObject } from "../engine/template";
import { defineNode, jsonValue, requiredText, setting, withDefault } from "./common";

const EVENTS = [
  "conversation.started",
  "conversation.ended",
  "conversation.rated",
  "conversation.analyzed",
] as const;
/** The events a trigger listens to when it names none: today's two, so older workflows keep theirs. */
const DEFAULT_EVENTS: (typeof EVENTS)[number][] = ["conversation.started", "conversation.ended"];
const OPERATORS = ["equals", "notEquals", "contains", "exists", "gt", "gte", "lt", "lte"] as const;

/** Starts an execution for the conversation events of one agent. */
export const conversationEvent = defineNode({
  type: "conversation_event",
  label: "Conversation event",
  trigger: true,
  description: "Starts an execution for the agent's conversation events (docs/events.md).",
  settings: () => ({
    agentId: requiredText("An agent of the workspace"),
    events: withDefault(
      z
        .array(z.enum(EVENTS))
        .min(1)
        // Each event once, in the order first given.
        .transform((events) => [...new Set(events)]),
      [...DEFAULT_EVENTS],
      { about: "The events that start the workflow.", codes: { too_small: "required" } },
    ),
  }),
  output: () => ({
    ...{ event: "", at: "", launchId: "", sessionId: "", flowId: "", channelId: "" },
    ...{ participant: { name: "", externalId: "" }, reason: "" },
    // conversation.rated and conversation.analyzed only (docs/events.md#conversation-events-to-workflows).
    ...{ rating: { score: 0, comment: "", ratedAt: "" } },
    analysis: { status: "", summary: "", data: {}, problems: [] },
  }),
});

/** `left operator right`; connections leaving it carry a branch. */
export const condition = defineNode({
  type: "condition",
  label: "Condition",
  templated: ["left", "right"],
  branches: ["true", "false"],
  description: 'Connections leaving it carry `branch: "true"` or `"false"`.',
  settings: () => ({
    // Present, though it may be any JSON: `z.unknown()` alone would let the key be left out.
    left: setting(
      jsonValue().refine((value) => value !== undefined),
      { about: "Any JSON; strings are templates." },
    ),
    operator: z.enum(OPERATORS),
    right: withDefault(jsonValue(), null, {
      about: "Any JSON; strings are templates; ignored by `exists`.",
    }),
  }),
  output: () => ({ result: true }),
});

/** A set node: `fields` is its output. */
export const set = defineNode({
  type: "set",
  label: "Set",
  templated: ["fields"],
  settings: () => ({
    // Any object rather than a zod record, which would drop an own `__proto__` key: such keys
    // are plain data here, as in a call's body (docs/api/webhooks.md#definition).
    fields: z.custom<Record<string, JsonValue>>(isPlainObject).openapi({
      type: "object",
      additionalProperties: {},
      description: "The node's output; every string in it, at any depth, is a template.",
    }),
  }),
  output: (node) => node.fields ?? {},
});

/** Waits, outliving restarts. */
export const wait = defineNode({
  type: "wait",
  label: "Wait",
  settings: () => ({
    seconds: setting(z.number().min(0).max(86_400), {
      about: "How long the execution waits; it outlives restarts.",
    }),
  }),
  output: () => ({ waitedSeconds: 0 }),
});
