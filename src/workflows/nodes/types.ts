/**
 * Workflow definitions and execution state (docs/api/webhooks.md#definition). Types and plain
 * data: the engine uses no Workers API, so it can be unit-tested alone and driven by the
 * Workflow-runner object. A node's type is its model's (models.ts), as stored: every default
 * filled in, its key given.
 */
import type { z } from "@hono/zod-openapi";
import type { JsonValue } from "../../platform/json";
import type { concurrencySchemas } from "./concurrency";
import type { ConnectionSchema, NODE_MODELS, NodeType } from "./models";

export type { WorkflowNote } from "../definitions/notes";
export type { NodeType } from "./models";
export type { DefinitionProblem } from "./problems";
export type { WebhookDedupe, WebhookVerify } from "./webhook-checks";

/** A node of type `T` as stored, from its model: every default filled in, its key given. */
type Stored<T extends NodeType> = z.output<(typeof NODE_MODELS)[T]["schema"]> & { key: string };
export type WorkflowNode = { [T in NodeType]: Stored<T> }[NodeType];
export type WebhookNode = Stored<"webhook">;
export type ConversationEventNode = Stored<"conversation_event">;
export type HttpRequestNode = Stored<"http_request">;
/** Answers the call of a responseNode webhook (docs/webhooks.md#respond-node); the run goes on. */
export type RespondNode = Stored<"respond">;
export type ConditionOperator = Stored<"condition">["operator"];
export type ConversationEvent = ConversationEventNode["events"][number];
/** An http_request node's retries (docs/api/webhooks.md#http-request-node). */
export type HttpRetry = NonNullable<HttpRequestNode["retry"]>;

export type Connection = z.output<typeof ConnectionSchema>;

/**
 * At most `limit` executions at once, the rest queue FIFO up to `queueLimit`; with `key`, at most
 * `keyLimit` of one key (docs/webhooks.md#concurrency, docs/webhooks.md#per-key-concurrency).
 */
export type WorkflowConcurrency = z.output<
  ReturnType<typeof concurrencySchemas>["ConcurrencyShown"]
>;

/** A validated definition with every default filled in. */
export type WorkflowDefinition = {
  nodes: WorkflowNode[];
  connections: Connection[];
  concurrency?: WorkflowConcurrency;
};

/** What a trigger node produced; for webhooks the outputs of docs/api/webhooks.md#request-outputs. */
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
  /**
   * Present once failed: why, without secrets; `errorCode` names a refusal: by the outbound policy,
   * or the API's code for a refused action of a person node (docs/workflows.md#errors), with its
   * `errorDetails`.
   */
  error?: string;
  errorCode?: "destination_not_allowed" | ActionErrorCode;
  errorDetails?: JsonValue[];
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
  /**
   * The tokens of the links its create_link nodes made, by node key: sealed with the state,
   * `[redacted]` wherever the execution is shown (docs/workflows.md#create-link).
   */
  tokens?: Record<string, string>;
  /** The session each waiting ask_person posted its question to, by node key (not secret). */
  asked?: Record<string, string>;
  /** The ask_person whose question timed out and is being closed in its chat (`close_question`). */
  closing?: string;
};

/** The API's codes a person node's action can fail with (docs/workflows.md#errors). */
export const ACTION_ERROR_CODES = [
  "invalid_request",
  "invalid_parameters",
  "forbidden_flow",
  "widget_not_found",
  "not_found",
  "too_many_pending_links",
  "link_not_open",
  "conversation_unavailable",
] as const;
export type ActionErrorCode = (typeof ACTION_ERROR_CODES)[number];

/** A person node's settings, templates resolved: what the runner does (docs/workflows.md). */
export type NodeAction =
  | { type: "create_link"; link: Record<string, JsonValue> }
  | { type: "send_message"; linkId: string; text: string }
  | Required<Pick<Stored<"ask_person">, "type" | "linkId" | "question" | "options" | "allowText">>
  | { type: "end_conversation"; linkId: string; reason: string | null }
  /** An ask_person that timed out closes its question in the chat it posted to (its session). */
  | { type: "close_question"; sessionId: string };

/** The step of a person node's action. */
export type LiveStep = Extract<Step, { kind: "act" }>;

/** How an action went: the node's output, or the refusal that fails it. */
export type ActionResult =
  | { ok: true; output: JsonValue }
  | { ok: false; error: string; code?: ActionErrorCode; details?: JsonValue[] };

/** A request an http_request node asks the runner to send. */
export type FetchRequest = {
  method: HttpRequestNode["method"];
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
  /** A person node's action (docs/workflows.md), performed like a fetch: idempotent by execution and node. */
  | { kind: "act"; nodeKey: string; action: NodeAction }
  | { kind: "wait"; nodeKey: string; until: number };
