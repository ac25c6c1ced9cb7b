/**
 * Every node type's model (docs/api/webhooks.md#definition), by type: the one description of a
 * node that the server's validation (validate.ts), the TypeScript types (types.ts), the OpenAPI
 * document (`WorkflowNode`) and the dashboard's editor read. A new type is a model listed here.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { valueAt } from "./common";
import { httpRequest } from "./http-request";
import { askPerson, createLink, endConversation, sendMessage } from "./person";
import { respond } from "./respond";
import { condition, conversationEvent, set, wait } from "./simple";
import { webhook } from "./webhook";

const MODELS = [
  webhook,
  conversationEvent,
  condition,
  set,
  httpRequest,
  wait,
  respond,
  createLink,
  sendMessage,
  askPerson,
  endConversation,
] as const;

type Model = (typeof MODELS)[number];
export type NodeType = Model["type"];

/** Each type's model, by type. */
export const NODE_MODELS = Object.fromEntries(MODELS.map((model) => [model.type, model])) as {
  [M in Model as M["type"]]: M;
};
export const NODE_TYPES: readonly NodeType[] = MODELS.map(({ type }) => type);
/** Each type's `name` when the node has none. */
export const DEFAULT_NAMES = Object.fromEntries(MODELS.map((m) => [m.type, m.label])) as Record<
  NodeType,
  string
>;

/** Whether `type` names a node type. */
export const isNodeType = (type: unknown): type is NodeType => NODE_TYPES.some((t) => t === type);
/** Whether the node starts executions (webhook, conversation_event); nothing connects into it. */
export const isTriggerNode = ({ type }: { type: string }) =>
  isNodeType(type) && NODE_MODELS[type].trigger;

/** `<type>_<n>` with the smallest n no key in `taken` is (the first webhook is `webhook_1`; docs/api/webhooks.md#definition). */
export function nextKey(type: NodeType, taken: Iterable<string>): string {
  const keys = new Set(taken);
  let n = 1;
  while (keys.has(`${type}_${n}`)) n++;
  return `${type}_${n}`;
}

/** Every branch a connection may carry: condition's and ask_person's. */
export const BRANCHES = ["true", "false", "answered", "timeout"] as const;
export type Branch = (typeof BRANCHES)[number];

/** The branches connections leaving a node of `type` carry; empty: they carry none. */
export function branchesOf(type: string): readonly string[] {
  return isNodeType(type) ? NODE_MODELS[type].branches : [];
}

/** A connection: `branch` on those leaving a node with branches (condition, ask_person) only. */
export const ConnectionSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  branch: z.enum(BRANCHES).optional(),
});

/** The settings of `node` whose strings are templates, by dotted path, with their values. */
export function templatedSettings(node: { type: NodeType }): [string, unknown][] {
  return NODE_MODELS[node.type].templated.flatMap((path) => {
    const value = valueAt(node, path.split("."));
    return value === undefined ? [] : [[path, value] as [string, unknown]];
  });
}

/** The OpenAPI component of a node, the union of the types' own components. */
export const WORKFLOW_NODE = "WorkflowNode";

/**
 * A node of a workflow definition: one of the types' schemas, told apart by `type`; the OpenAPI
 * component `WorkflowNode`, which workflow bodies and responses point at (definitions/schemas.ts).
 */
export const workflowNodeSchema = once(() =>
  z
    .discriminatedUnion(
      "type",
      MODELS.map(({ schema }) => schema) as unknown as [Model["schema"], ...Model["schema"][]],
    )
    .openapi(WORKFLOW_NODE, {
      description:
        "A node: `{key?, type, name?, ...settings}`, the settings those of its type (docs/api/webhooks.md#definition).",
      example: { key: "webhook_1", type: "webhook", httpMethod: "POST", responseMode: "lastNode" },
    }),
);
