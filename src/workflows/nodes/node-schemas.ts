/**
 * One zod schema per node type, every setting as `parseDefinition` (src/workflows/nodes/validate-node.ts)
 * accepts it, combined into the `WorkflowNode` union on `type` (docs/api/webhooks.md#definition).
 * They make the OpenAPI document and the SDK's types show each type's settings; requests are still
 * checked by `parseDefinition`, which lists every problem with the workflow codes
 * (workflow-schemas.ts). Rules over the whole graph (unique keys, template references, a respond
 * node after a responseNode webhook) are parseDefinition's alone.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { replyHasNoBody } from "../engine/respond";
import {
  anyJson,
  nodeSettingSchemas,
  numberSetting,
  replyBody,
  replyHeaders,
  withDefault,
} from "./node-setting-schemas";
import { DEFAULT_REQUEST_METHOD, NUMBER_SETTINGS } from "./node-settings";
import { REPLY_CONTENT_TYPES } from "./reply";
import {
  CONDITION_OPERATORS,
  CONVERSATION_EVENTS,
  HTTP_METHODS,
  type NodeType,
  RESPONSE_MODES,
  WEBHOOK_DEFAULTS,
} from "./types";
import { REPLY_FIELDS, REPLY_STATUS } from "./validate-reply";
import { DEFAULT_CONTENT_TYPE, RESPOND_STATUS } from "./validate-respond";

/** The OpenAPI component of a node, the union of the types' own components. */
export const WORKFLOW_NODE = "WorkflowNode";

const Seconds = NUMBER_SETTINGS.seconds;

/**
 * The node types' schemas, built on first use: in the Worker only the management API needs them,
 * and it is built on its first request (src/routes.ts).
 */
export const nodeSchemas = once(() => {
  const { common, HttpRetrySchema, WebhookDedupeSettingSchema, WebhookVerifySchema } =
    nodeSettingSchemas();

  /**
   * A webhook trigger (docs/api/webhooks.md#definition): its reply only when immediate, and a
   * dedupe key unless it has a verify preset.
   */
  const WebhookNodeSchema = z
    .strictObject({
      ...common("webhook"),
      httpMethod: withDefault(
        z.enum(HTTP_METHODS),
        WEBHOOK_DEFAULTS.httpMethod,
        "The method the node's URL accepts; others get 405.",
      ),
      responseMode: withDefault(
        z.enum(RESPONSE_MODES),
        WEBHOOK_DEFAULTS.responseMode,
        "immediate: answered at once; lastNode: with the final node's output; responseNode: by the first respond node reached (docs/webhooks.md#respond-node).",
      ),
      responseTimeoutSeconds: numberSetting(
        "responseTimeoutSeconds",
        "lastNode and responseNode: how long the caller is held before 504 workflow_timeout (s).",
      ),
      rateLimitPerMinute: numberSetting(
        "rateLimitPerMinute",
        "Calls accepted per minute on the node's URL; more get 429.",
      ),
      verify: WebhookVerifySchema.optional(),
      dedupe: WebhookDedupeSettingSchema,
      responseStatus: z
        .number()
        .int()
        .min(REPLY_STATUS.min)
        .max(REPLY_STATUS.max)
        .optional()
        .openapi({ description: "immediate only: the reply's status. Default: 200." }),
      responseHeaders: replyHeaders(
        "immediate only: the reply's headers, templates over the call and {{$execution.id}}. Default: none.",
      ),
      responseBody: replyBody(
        'immediate only: the reply\'s body, its strings templates over the call and {{$execution.id}}. Default: `{"success": true, "executionId": …}`.',
      ),
    })
    .superRefine((node, ctx) => {
      const mode = node.responseMode ?? WEBHOOK_DEFAULTS.responseMode;
      for (const field of REPLY_FIELDS) {
        if (mode !== "immediate" && Object.hasOwn(node, field)) {
          ctx.addIssue({ code: "custom", path: [field], message: "For immediate only." });
        }
      }
      if (node.dedupe && node.dedupe.key === undefined && !node.verify) {
        const message = "A key, or a verify preset.";
        ctx.addIssue({ code: "custom", path: ["dedupe", "key"], message });
      }
    })
    .openapi("WebhookNode", {
      description:
        "Starts an execution for each call to its URL (docs/api/webhooks.md#urls); `responseStatus`, `responseHeaders` and `responseBody` only with responseMode immediate (docs/webhooks.md#replies).",
    });

  /** A conversation_event trigger (docs/events.md). */
  const ConversationEventNodeSchema = z
    .strictObject({
      ...common("conversation_event"),
      agentId: z.string().min(1).openapi({ description: "An agent of the workspace" }),
      events: withDefault(
        z.array(z.enum(CONVERSATION_EVENTS)).min(1),
        CONVERSATION_EVENTS,
        "The events that start the workflow.",
      ),
    })
    .openapi("ConversationEventNode", {
      description: "Starts an execution for the agent's conversation events (docs/events.md).",
    });

  /** A condition: `left operator right`, both sides any JSON (docs/api/webhooks.md#definition). */
  const ConditionNodeSchema = z
    .strictObject({
      ...common("condition"),
      left: anyJson("Any JSON; strings are templates."),
      operator: z.enum(CONDITION_OPERATORS),
      right: z.unknown().optional().openapi({
        description: "Any JSON; strings are templates; ignored by `exists`. Default: null.",
      }),
    })
    .openapi("ConditionNode", {
      description: 'Connections leaving it carry `branch: "true"` or `"false"`.',
    });

  /** A set node: `fields` is its output (docs/api/webhooks.md#definition). */
  const SetNodeSchema = z
    .strictObject({
      ...common("set"),
      fields: z.record(z.string(), z.unknown()).openapi({
        description: "The node's output; every string in it, at any depth, is a template.",
      }),
    })
    .openapi("SetNode");

  /** An http_request node (docs/api/webhooks.md#http-request-node). */
  const HttpRequestNodeSchema = z
    .strictObject({
      ...common("http_request"),
      method: withDefault(z.enum(HTTP_METHODS), DEFAULT_REQUEST_METHOD, "The method sent."),
      url: z.string().min(1).openapi({
        description: "A template that must resolve to an http(s) URL.",
      }),
      headers: withDefault(
        z.record(z.string(), z.string()),
        {},
        "Headers sent; values are templates.",
      ),
      body: z.unknown().optional().openapi({
        description:
          "A template: a string is sent as is, anything else as JSON; not sent on GET and HEAD. Absent: no body.",
      }),
      neverError: withDefault(
        z.boolean(),
        false,
        "When true, a non-2xx response does not fail the node.",
      ),
      timeoutSeconds: numberSetting("timeoutSeconds", "How long an attempt may take (s)."),
      retry: HttpRetrySchema.optional(),
    })
    .openapi("HttpRequestNode", {
      description:
        "Sends a request; its output is `{status, headers, body}` (docs/api/webhooks.md#http-request-node).",
    });

  /** A wait node (docs/api/webhooks.md#definition). */
  const WaitNodeSchema = z
    .strictObject({
      ...common("wait"),
      seconds: z.number().min(Seconds.min).max(Seconds.max).openapi({
        description: "How long the execution waits; it outlives restarts.",
      }),
    })
    .openapi("WaitNode");

  /**
   * A respond node (docs/webhooks.md#respond-node): a 3xx needs a location header, and a status
   * without a body refuses one.
   */
  const RespondNodeSchema = z
    .strictObject({
      ...common("respond"),
      status: withDefault(
        z.number().int().min(RESPOND_STATUS.min).max(RESPOND_STATUS.max),
        RESPOND_STATUS.fallback,
        "The answer's status; a 3xx needs a `location` header; 204, 205, 304 and every 3xx carry no body.",
      ),
      headers: replyHeaders(
        "The answer's headers, templates over earlier nodes and {{$execution.id}}; a `content-type` replaces the one of `contentType`. Default: none.",
      ),
      body: replyBody(
        "Any JSON, its strings templates over earlier nodes and {{$execution.id}}. Absent: the answer has no body.",
      ),
      contentType: withDefault(
        z.enum(REPLY_CONTENT_TYPES),
        DEFAULT_CONTENT_TYPE,
        "How the body is encoded, and its Content-Type unless a `content-type` header says otherwise.",
      ),
    })
    .superRefine((node, ctx) => {
      const status = node.status ?? RESPOND_STATUS.fallback;
      const names = Object.keys(node.headers ?? {}).map((name) => name.toLowerCase());
      if (status >= 300 && status <= 399 && !names.includes("location")) {
        ctx.addIssue({ code: "custom", path: ["headers"], message: "A redirect needs location." });
      }
      if (replyHasNoBody(status) && Object.hasOwn(node, "body")) {
        ctx.addIssue({ code: "custom", path: ["body"], message: `A ${status} carries no body.` });
      }
    })
    .openapi("RespondNode", {
      description:
        "Answers the call of a responseNode webhook it follows, and the run goes on (docs/webhooks.md#respond-node).",
    });

  /** Each node type's schema, by type. */
  const NODE_SCHEMAS = {
    webhook: WebhookNodeSchema,
    conversation_event: ConversationEventNodeSchema,
    condition: ConditionNodeSchema,
    set: SetNodeSchema,
    http_request: HttpRequestNodeSchema,
    wait: WaitNodeSchema,
    respond: RespondNodeSchema,
  } as const satisfies Record<NodeType, z.ZodType>;

  /**
   * A node of a workflow definition: one of the types' schemas, told apart by `type`; the OpenAPI
   * component `WorkflowNode`, which workflow bodies and responses point at (workflow-schemas.ts).
   */
  const WorkflowNodeSchema = z
    .discriminatedUnion("type", [
      WebhookNodeSchema,
      ConversationEventNodeSchema,
      ConditionNodeSchema,
      SetNodeSchema,
      HttpRequestNodeSchema,
      WaitNodeSchema,
      RespondNodeSchema,
    ])
    .openapi(WORKFLOW_NODE, {
      description:
        "A node: `{key?, type, name?, ...settings}`, the settings those of its type (docs/api/webhooks.md#definition).",
      example: { key: "webhook_1", type: "webhook", httpMethod: "POST", responseMode: "lastNode" },
    });

  return {
    WebhookNodeSchema,
    ConversationEventNodeSchema,
    ConditionNodeSchema,
    SetNodeSchema,
    HttpRequestNodeSchema,
    WaitNodeSchema,
    RespondNodeSchema,
    NODE_SCHEMAS,
    WorkflowNodeSchema,
  };
});

/** The types of the schemas `nodeSchemas` builds, by name. */
export type NodeSchemas = ReturnType<typeof nodeSchemas>;
