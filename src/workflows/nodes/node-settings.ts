/**
 * What each node type accepts (docs/api/webhooks.md#definition): its settings, the limits and
 * defaults of the numeric ones, the names nodes get when they have none. The validator
 * (validate-node.ts) enforces these; the OpenAPI document (src/workflows/nodes/node-schemas.ts) shows them.
 */
import { MAX_RESPONSE_TIMEOUT_SECONDS, type NodeType, WEBHOOK_DEFAULTS } from "./types";
import { REPLY_FIELDS } from "./validate-reply";
import { RESPOND_FIELDS } from "./validate-respond";

// `secrets` is the template namespace; the other two are path segments templates refuse to read.
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["secrets", "constructor", "prototype"]);
export const MAX_NAME_LENGTH = 200;
/** How far from 0 a node's canvas `position` may be, either way (px). */
export const MAX_POSITION = 1_000_000;
/** The method an http_request node sends when it names none. */
export const DEFAULT_REQUEST_METHOD = "GET";

/** Each type's `name` when the node has none. */
export const DEFAULT_NAMES: Record<NodeType, string> = {
  webhook: WEBHOOK_DEFAULTS.name,
  conversation_event: "Conversation event",
  condition: "Condition",
  set: "Set",
  http_request: "HTTP Request",
  wait: "Wait",
  respond: "Respond",
};

/** The fields every node may have. */
export const COMMON_FIELDS: readonly string[] = ["key", "type", "name", "position"];

/** The settings of each node type beside the common fields; any other field is unknown_field. */
export const NODE_SETTINGS: Record<NodeType, readonly string[]> = {
  webhook: [
    "httpMethod",
    "responseMode",
    "responseTimeoutSeconds",
    "rateLimitPerMinute",
    "verify",
    "dedupe",
    ...REPLY_FIELDS,
  ],
  conversation_event: ["agentId", "events"],
  condition: ["left", "operator", "right"],
  set: ["fields"],
  http_request: ["method", "url", "headers", "body", "neverError", "timeoutSeconds", "retry"],
  wait: ["seconds"],
  respond: RESPOND_FIELDS,
};

/** A numeric setting's range, whether it must be whole, and its default. */
export type NumberRule = { min: number; max: number; integer: boolean; fallback: number };

/** The numeric settings of nodes by name, with their limits and defaults (`fallback`). */
export const NUMBER_SETTINGS = {
  responseTimeoutSeconds: {
    min: 1,
    max: MAX_RESPONSE_TIMEOUT_SECONDS,
    integer: true,
    fallback: WEBHOOK_DEFAULTS.responseTimeoutSeconds,
  },
  rateLimitPerMinute: {
    min: 1,
    max: 100_000,
    integer: true,
    fallback: WEBHOOK_DEFAULTS.rateLimitPerMinute,
  },
  timeoutSeconds: { min: 1, max: 60, integer: true, fallback: 30 },
  seconds: { min: 0, max: 86_400, integer: false, fallback: 0 },
} as const satisfies Record<string, NumberRule>;
