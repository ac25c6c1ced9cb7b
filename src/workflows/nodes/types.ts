/**
 * Workflow definitions and execution state (spec 2.5, 2.6; docs/api/webhooks.md). Pure types: the engine in this
 * folder uses no Workers API, so it can be unit-tested alone and driven by the Workflow-runner object.
 */
import type { JsonValue } from "../../platform/json";
import type { ReplyContentType } from "./reply";

export const NODE_TYPES = [
  "webhook",
  "conversation_event",
  "condition",
  "set",
  "http_request",
  "wait",
  "respond",
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** Node types that start an execution; they never have incoming connections. */
export const TRIGGER_TYPES = ["webhook", "conversation_event"] as const;

/** Methods a webhook node may accept and an http_request node may send (docs/api/webhooks.md). */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const CONDITION_OPERATORS = [
  "equals",
  "notEquals",
  "contains",
  "exists",
  "gt",
  "gte",
  "lt",
  "lte",
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const CONVERSATION_EVENTS = ["conversation.started", "conversation.ended"] as const;
export type ConversationEvent = (typeof CONVERSATION_EVENTS)[number];

/** Webhook settings and their defaults (spec 2.5, docs/api/webhooks.md). */
export const WEBHOOK_DEFAULTS = {
  name: "Webhook",
  key: "webhook_1",
  httpMethod: "POST",
  responseMode: "immediate",
  responseTimeoutSeconds: 25,
  rateLimitPerMinute: 1200,
} as const;
export const MAX_RESPONSE_TIMEOUT_SECONDS = 100;

type NodeBase = {
  /** Short code, unique in the workflow, `^[A-Za-z][A-Za-z0-9_]{0,63}$`; used in templates and URLs. */
  key: string;
  /** Label shown on the canvas. */
  name: string;
  /** Where the dashboard's canvas draws the node (px, within ±MAX_POSITION); runs ignore it. */
  position?: { x: number; y: number };
};

/** Signature schemes a webhook node can check (docs/webhooks.md#signatures). */
export const SIGNATURE_PRESETS = [
  "github",
  "stripe",
  "slack",
  "shopify",
  "twilio",
  "standard-webhooks",
  "hmac-sha256",
] as const;
export type SignaturePreset = (typeof SIGNATURE_PRESETS)[number];

/** A webhook node's signature check: opt-in; without it no credential is checked (spec 5.1). */
export type WebhookVerify = {
  preset: SignaturePreset;
  /** `{{secrets.NAME}}`: the workspace secret holding the signing secret. */
  secret: string;
  /** Where the scheme signs a timestamp: how far from now it may be (s); default 300. */
  toleranceSeconds: number;
  /** hmac-sha256 only: the header holding the signature (lowercase). */
  header?: string;
  /** hmac-sha256 only: how the signature is written; default hex. */
  encoding?: "hex" | "base64";
  /** hmac-sha256 only: text before the signature in the header, e.g. `sha256=`. */
  prefix?: string;
};

/** A webhook node's deduplication of repeated deliveries (docs/webhooks.md#deduplication). */
export type WebhookDedupe = {
  /** A template over this node's own output, e.g. `{{webhook_1.headers.x-github-delivery}}`; absent: the preset's. */
  key?: string;
  /** How long a key is remembered (s); 1..604800; default 604800 for a preset that signs no timestamp, else 86400. */
  windowSeconds: number;
};

/** How a webhook call is answered (docs/webhooks.md#replies). */
export const RESPONSE_MODES = ["immediate", "lastNode", "responseNode"] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export type WebhookNode = NodeBase & {
  type: "webhook";
  httpMethod: HttpMethod;
  /** immediate: at once; lastNode: the final output; responseNode: the first respond node reached. */
  responseMode: ResponseMode;
  /** lastNode, responseNode: seconds a caller is held before 504 workflow_timeout; 1..100, default 25. */
  responseTimeoutSeconds: number;
  /** Accepted requests per minute on this node's URL; 1..100000, default 1200. */
  rateLimitPerMinute: number;
  /** The sender's signature, checked over the raw body before anything runs. */
  verify?: WebhookVerify;
  /** Repeated deliveries start nothing and answer as the first; absent: dedupePlan's default. */
  dedupe?: WebhookDedupe | false;
  /** immediate only: the reply's status (200..299), headers and body, templates over the call. */
  responseStatus?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: JsonValue;
};

export type ConversationEventNode = NodeBase & {
  type: "conversation_event";
  agentId: string;
  /** Which events start the workflow; default both. */
  events: ConversationEvent[];
};

export type ConditionNode = NodeBase & {
  type: "condition";
  /** Any JSON value; strings are templates. */
  left: JsonValue;
  operator: ConditionOperator;
  /** Any JSON value; strings are templates. Ignored by `exists`. */
  right: JsonValue;
};

export type SetNode = NodeBase & {
  type: "set";
  /** Output object; every string inside (at any depth) is a template. */
  fields: Record<string, JsonValue>;
};

export type HttpRequestNode = NodeBase & {
  type: "http_request";
  method: HttpMethod;
  /** Template; must resolve to an http(s) URL. */
  url: string;
  /** Header values are templates. */
  headers: Record<string, string>;
  /** Templated; a string is sent as is, anything else as JSON. Absent: no body. */
  body?: JsonValue;
  /** When true a non-2xx response does not fail the node (n8n's "Never Error"). Default false. */
  neverError: boolean;
  /** 1..60, default 30. */
  timeoutSeconds: number;
  /** Attempts again after a network error, a timeout or a retried status; default: no retry. */
  retry?: HttpRetry;
};

/** An http_request node's retries (docs/api/webhooks.md#http-request-node). */
export type HttpRetry = {
  /** Attempts in all, the first included: 1..10. */
  maxAttempts: number;
  /** The wait before the second attempt (s), doubled before each next one, ±20 % jitter. */
  backoffSeconds: number;
  /** Statuses that are retried; default 429 and every 5xx. */
  on?: number[];
};

export type WaitNode = NodeBase & {
  type: "wait";
  /** 0..86400 (one day). */
  seconds: number;
};

/** Answers the call of a responseNode webhook (docs/webhooks.md#respond-node); the run goes on. */
export type RespondNode = NodeBase & {
  type: "respond";
  /** 200..599, default 200; a 3xx needs a `location` header and sends no body. */
  status: number;
  /** Lower-case names; values are templates. */
  headers: Record<string, string>;
  /** Any JSON, its strings templates. Absent: the answer has no body. */
  body?: JsonValue;
  /** How the body is encoded, and the Content-Type unless a `content-type` header says otherwise. */
  contentType: ReplyContentType;
};

export type WorkflowNode =
  | WebhookNode
  | ConversationEventNode
  | ConditionNode
  | SetNode
  | HttpRequestNode
  | WaitNode
  | RespondNode;

export type Connection = {
  from: string;
  to: string;
  /** Required on connections leaving a condition node, absent on all others. */
  branch?: "true" | "false";
};

/** At most `limit` executions at once, the rest queue FIFO up to `queueLimit` (docs/webhooks.md#concurrency). */
export type WorkflowConcurrency = { limit: number; queueLimit: number };

/** A validated definition with every default filled in. */
export type WorkflowDefinition = {
  nodes: WorkflowNode[];
  connections: Connection[];
  concurrency?: WorkflowConcurrency;
};

/** One problem of a definition; `field` is a path like `nodes[2].httpMethod` or `connections[0].to`. */
export type DefinitionProblem = { field: string; code: string; message: string };

/** Records one problem of a setting, under the field's path (`verify.secret`, `retry.on`, …). */
export type ReportProblem = (field: string, code: string, message: string) => void;

/** A header name as HTTP allows it, in lower case. */
export const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** What a trigger node produced; for webhooks the outputs of spec 2.6 / docs/api/webhooks.md#request-outputs. */
export type WebhookOutput = {
  body: JsonValue;
  headers: Record<string, string>;
  queryParams: Record<string, string | string[]>;
  method: string;
  /** Present when the body was neither JSON nor a form (docs/api/webhooks.md). */
  rawBody?: string;
};

export type NodeStatus = "running" | "waiting" | "succeeded" | "failed";

/** One node's run inside an execution (docs/api/webhooks.md#executions, `nodes[]`). Times are epoch ms. */
export type NodeRun = {
  key: string;
  type: NodeType;
  status: NodeStatus;
  /** Present once succeeded. */
  output?: JsonValue;
  /** Present once failed: why, without secrets; `errorCode` names a refusal by the outbound policy. */
  error?: string;
  errorCode?: "destination_not_allowed";
  /** An http_request node with retries: each attempt that did not succeed, oldest first. */
  attempts?: { at: number; status: number | null; error?: string }[];
  /** A respond node whose output (a WebhookReply) is the call's answer: the first one reached. */
  answered?: true;
  startedAt: number;
  finishedAt: number | null;
};

/** Everything needed to continue an execution after a restart: plain JSON, stored as is. `outputs`
 * holds raw node outputs; the runner redacts secrets before anything is shown. */
export type ExecutionState = {
  /** The runner's id of the execution, for `{{$execution.id}}`; absent in states stored before it. */
  executionId?: string;
  triggerKey: string;
  status: "running" | "succeeded" | "failed";
  /** Node keys in the order they are considered: topological, of the nodes the trigger reaches. */
  order: string[];
  /** Index in `order` of the next node to consider. */
  position: number;
  /** Nodes with at least one active incoming connection (the trigger is always active). */
  active: string[];
  /** Outputs of succeeded nodes by key. */
  outputs: Record<string, JsonValue>;
  runs: NodeRun[];
  /** Key of the node whose output is the execution's result (the last node that succeeded). */
  lastNodeKey: string | null;
  /** Key of the node that failed, when status is failed. */
  failedNodeKey: string | null;
  /** Set while the current node waits: epoch ms when it may go on. */
  waitUntil: number | null;
};

/** A request an http_request node asks the runner to send. */
export type FetchRequest = {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
};

/** The response the runner hands back: body already parsed (JSON when it says so, else text). */
export type FetchResponse = {
  status: number;
  headers: Record<string, string>;
  body: JsonValue;
};

/**
 * What the runner must do next. `advance` runs every synchronous node it can and stops at the end
 * or at the first node that needs the outside world.
 */
export type Step =
  | { kind: "finished"; status: "succeeded" | "failed" }
  | { kind: "fetch"; nodeKey: string; request: FetchRequest }
  | { kind: "wait"; nodeKey: string; until: number };
