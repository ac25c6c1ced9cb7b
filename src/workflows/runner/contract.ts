/** The WorkflowRunner's RPC interface and its shapes (docs/architecture.md#workflow-runner). */

import type { JsonValue } from "../../platform/json";
import type { ConversationEvent, NodeRun, WebhookOutput } from "../nodes/types";
import type { Reply } from "../webhook/http-answer";
import type { Arming, Sample } from "./capture-store";
import type { DeliveryKey } from "./dedupe-store";
import type { MetricBucket } from "./metrics-counts";
import type { LoggedRequest, LoggedRequestDetail } from "./request-log-entry";

/** Why the Worker refused a webhook body: 413 too large, 415 encoded, 422 unparsable or broken off. */
export type BadBodyStatus = 413 | 415 | 422;

/** A webhook request, read and parsed by the Worker (docs/api/webhooks.md#request-outputs). */
export type WebhookCall = {
  workflowId: string;
  workspaceSlug: string;
  workflowSlug: string;
  nodeKey: string;
  method: string;
  /** Chosen by the Worker, to re-attach after a restart (docs/scaling.md#runner-shards). */
  executionId: string;
  /** How many runner shards the Worker knows the workflow to have; a runner that knows better says so. */
  shards: number;
  /** Other shards are left to ask: a used share answers `shard_full`, logging nothing. */
  spill: boolean;
  input:
    | { ok: true; output: WebhookOutput }
    | { ok: false; status: BadBodyStatus; message: string };
  /** The HTTP request's id (`x-request-id`, and `requestId` of an error), for the request log. */
  requestId: string;
  /** When the Worker received it (epoch ms): the request log's latency counts from here. */
  receivedAt: number;
  /** The full URL as the sender called it (Twilio signs it). */
  url: string;
  /** Lower-case names; a repeated header's values joined by ", ". */
  headers: Record<string, string>;
  /** The body's bytes exactly as sent, for `verify` and the request log; null when not read whole. */
  body: Uint8Array | null;
  /** The body's size in bytes (as declared, or more than the limit, for one refused unread). */
  size: number;
};

/**
 * How a call to a test URL ends (docs/webhooks.md#capture): `executionId` names the test execution
 * it started when armed with `run`; `queue_full`, the sample was kept but nothing could start.
 */
export type CaptureOutcome =
  | { kind: "captured"; executionId?: string }
  | Extract<
      DirectOutcome,
      { kind: "not_found" | "method_not_allowed" | "bad_body" | "queue_full" }
    >;

/**
 * Whether an execution was started by the workflow's own triggers (`production`) or by a builder's
 * test (`test`: a captured call with `run`, or a test run of a sample; docs/webhooks.md#test-runs).
 */
export type ExecutionMode = "production" | "test";

/** A test run's execution, or why none started (docs/webhooks.md#test-runs). */
export type TestRunResult =
  | { ok: true; executionId: string; sampleId: string }
  | { ok: false; reason: "node_not_found" | "sample_not_found" | "queue_full" };

/** A conversation event for one of the workflow's conversation_event triggers (docs/events.md). */
export type EventCall = {
  workflowId: string;
  nodeKey: string;
  /** Derived from the event by the sender, so a repeated delivery starts nothing twice. */
  executionId: string;
  event: ConversationEvent;
  agentId: string;
  output: JsonValue;
};

/** How a webhook call ends; the Worker turns it into the HTTP response. */
export type WebhookOutcome =
  | DirectOutcome
  /** A repeated delivery: the first call's answer, sent with `x-deduplicated: true`. */
  | { kind: "deduplicated"; first: DirectOutcome };

/**
 * A runner shard's answer that sends the Worker elsewhere (docs/scaling.md#runner-shards), never
 * shown to the sender: `shard_full`, this shard's share of the node's rate limit is used (ask the
 * next); `reshard`, the workflow has `shards` runners now (pick again among them).
 */
export type ShardAnswer =
  | { kind: "shard_full"; retryAfterSeconds: number }
  | { kind: "reshard"; shards: number };

/** Every outcome but a repeated delivery's. */
export type DirectOutcome =
  | { kind: "invalid_signature" }
  /** `stale`: the object does not hold the workflow the URL names (deleted, or its slug moved). */
  | { kind: "not_found"; stale: boolean }
  | { kind: "method_not_allowed"; allow: string }
  | { kind: "rate_limited"; retryAfterSeconds: number; limit: number }
  | { kind: "bad_body"; status: BadBodyStatus; message: string }
  /** `reply`: the node's own (docs/webhooks.md#replies); absent, the default one. */
  /** `queued`: it waits for a slot of the workflow's concurrency (docs/webhooks.md#concurrency). */
  /** `debounced`: merged into an execution an earlier call opened (docs/webhooks.md#debounce). */
  | { kind: "accepted"; executionId: string; queued?: boolean; debounced?: boolean; reply?: Reply }
  | { kind: "queue_full"; retryAfterSeconds: number }
  | { kind: "succeeded"; executionId: string; output: JsonValue }
  /** responseNode: the reply of the first respond node reached (docs/webhooks.md#respond-node). */
  | { kind: "responded"; executionId: string; reply: Reply }
  | { kind: "failed"; executionId: string; nodeKey: string | null }
  /** `resultToken`: the handle for fetching the result later (docs/webhooks.md#result-handles). */
  | { kind: "timeout"; executionId: string; resultToken?: string }
  /**
   * A sender's handshake, answered for the builder with `reply` (status, content type, headers and
   * body; none for asana's); nothing started (docs/webhooks.md#handshakes).
   */
  | { kind: "handshake"; reply: Reply }
  /** A handshake refused (403 handshake_refused): meta's wrong verify token, asana's second secret. */
  | { kind: "handshake_refused" };

/** What a result handle shows: the settled outcome, or that the execution is still running. */
export type ResultState = Settled | { kind: "running"; executionId: string };

/** What a held lastNode or responseNode caller is answered with, timeouts aside. */
export type Settled = Extract<WebhookOutcome, { kind: "succeeded" | "responded" | "failed" }>;

/** An execution's record as the executions API shows it (secrets redacted; times in epoch ms). */
export type ExecutionRecord = {
  id: string;
  workflowId: string;
  /** `queued`: waiting for a free slot of the workflow's concurrency limit. */
  status: "queued" | "running" | "succeeded" | "failed";
  trigger: { key: string; type: string };
  nodes: NodeRun[];
  startedAt: number;
  finishedAt: number | null;
  /** The execution this one replays, or null. */
  replayOf: string | null;
  /** When it was queued (epoch ms), or null: its wait is `startedAt - queuedAt`. */
  queuedAt: number | null;
  mode: ExecutionMode;
};

/** Which definition a replay runs on (docs/webhooks.md#replay). */
export type ReplayMode = "original" | "current";

/** A replay's new record, or why there is none. */
export type ReplayResult =
  | { ok: true; record: ExecutionRecord }
  | { ok: false; reason: "not_found" | "trigger_gone" | "original_gone" | "queue_full" };

/** A page of records, newest first. */
export type ExecutionPage = { data: ExecutionRecord[]; hasMore: boolean };

/** What the WorkflowRunner offers over RPC. */
export interface WorkflowRunnerApi {
  /** Re-reads the workflow after the management API changed it; a deleted one is forgotten. */
  configure(workflowId: string): Promise<void>;
  /** The workspace's secrets changed; the next execution reads them again. */
  secretsChanged(): Promise<void>;
  /**
   * Reseals the next page of records under the current key (docs/security.md#rotating-keys).
   * @param after where the last page ended (null: the first page)
   */
  resealRecords(after: string | null, limit: number): Promise<ResealPage>;
  /**
   * Erases the next page of what carried a person (docs/security.md#erasure): executions' node
   * inputs and outputs become `[erased]` (a live one ends as failed); with the first page, request
   * log entries, captured samples and delivery keys that carry them are deleted.
   * @param after where the last page ended (null: the first page)
   */
  eraseRecords(externalId: string, after: string | null, limit: number): Promise<ErasurePage>;
  /** Receives one webhook call: refuses it, starts an execution, or sends the Worker elsewhere. */
  receive(call: WebhookCall): Promise<WebhookOutcome | ShardAnswer>;
  /** Starts an execution from a conversation event; false when none started. */
  startFromEvent(call: EventCall): Promise<boolean>;
  /** The result behind a handle of a timed-out lastNode or responseNode call; null for an unknown or expired one. */
  result(token: string): Promise<ResultState | null>;
  /** Re-attaches a lastNode or responseNode caller after a restart; null for an unknown execution. */
  attach(workflowId: string, executionId: string): Promise<WebhookOutcome | null>;
  /** One execution's record, or null. */
  getExecution(executionId: string): Promise<ExecutionRecord | null>;
  /** Records newest first, of `mode` only when given; `startingAfter` (an execution id) pages on. */
  listExecutions(
    limit: number,
    startingAfter?: string,
    mode?: ExecutionMode,
  ): Promise<ExecutionPage>;
  /** Records created before `createdAt` (epoch ms), newest first (docs/scaling.md#what-each-shard-holds). */
  listExecutionsBefore(
    limit: number,
    before: { createdAt: number; inclusive: boolean },
    mode?: ExecutionMode,
  ): Promise<ExecutionPage>;
  /**
   * Starts a replay of one execution (docs/webhooks.md#replay); settles once it is recorded.
   * @param as `test` for a test run with the execution's trigger input (docs/webhooks.md#test-runs)
   */
  replay(
    workflowId: string,
    executionId: string,
    mode: ReplayMode,
    as?: ExecutionMode,
  ): Promise<ReplayResult>;
  /** Queues replays of the failed executions started in `[since, until)` (epoch ms); how many. */
  replayFailed(
    workflowId: string,
    window: { since: number; until: number },
    mode: ReplayMode,
  ): Promise<number>;
  /** The request log, newest first; `before` (entry id) pages on (docs/webhooks.md#request-log). */
  listRequests(
    limit: number,
    filter: { outcome?: string; before?: string; maxAgeMs?: number },
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }>;
  /**
   * Hourly counters of `[from, to)` (epoch ms, whole hours) summed per `stepMs` bucket; empty
   * buckets left out (docs/operations.md#metrics).
   */
  metricBuckets(from: number, to: number, stepMs: number): Promise<MetricBucket[]>;
  /**
   * One logged call with its whole body, or null.
   * @param maxAgeMs the workspace's `requestLogDays` (docs/security.md#retention), when known
   */
  getRequest(id: string, maxAgeMs?: number): Promise<LoggedRequestDetail | null>;
  /**
   * Arms capture on a webhook node's test URL; null when the workflow has no such node.
   * @param run each captured call also starts a test execution (docs/webhooks.md#test-runs)
   */
  armCapture(
    workflowId: string,
    nodeKey: string,
    count: number,
    ttlSeconds: number,
    run?: boolean,
  ): Promise<Arming | null>;
  /** Stores a test-URL call as a sample when its node is armed (docs/webhooks.md#capture). */
  capture(call: WebhookCall): Promise<CaptureOutcome>;
  /**
   * Starts a test execution of the saved definition from a webhook node with one of its samples
   * (`sampleId`, default the newest), running or stopped (docs/webhooks.md#test-runs).
   */
  testRun(workflowId: string, nodeKey: string, sampleId?: string): Promise<TestRunResult>;
  /** A webhook node's captured samples, newest first; null when the workflow has no such node. */
  samples(workflowId: string, nodeKey: string): Promise<Sample[] | null>;
  /**
   * Shard 0 keeps an asana hook secret for a node, sealed (docs/webhooks.md#handshakes).
   * @returns true once `secret` is the node's kept one; false while another is kept
   */
  keepHookSecret(workflowId: string, nodeKey: string, secret: string): Promise<boolean>;
  /** The asana hook secret shard 0 keeps for a node, or null. */
  hookSecret(workflowId: string, nodeKey: string): Promise<string | null>;
  /**
   * Shard 0 claims a call's delivery keys for the execution (docs/webhooks.md#deduplication).
   * @returns the first execution's id for a repeated key, or null once this call holds them
   */
  claimDelivery(keys: DeliveryKey[], executionId: string, windowMs: number): Promise<string | null>;
  /** Shard 0 forgets the key an execution claimed, which could not be started after all. */
  releaseDelivery(executionId: string): Promise<void>;
  /** What a repeated delivery's first call got, once settled; asked of the shard running it. */
  repeatAnswer(workflowId: string, nodeKey: string, executionId: string): Promise<DirectOutcome>;
}

/**
 * What a Conversation tells the runner of an ask_person question (docs/workflows.md#ask-person),
 * part of the WorkflowRunner contract: the runner implements both (its WorkflowRunnerApi).
 */
export interface WorkflowRunnerQuestions {
  /** The person answered ask_person's question: the waiting execution goes on by branch `answered` with `{answer, answeredAt (ISO)}`. Idempotent; an execution no longer waiting on it ignores it. */
  answerQuestion(answer: {
    executionId: string;
    nodeKey: string;
    questionId: string;
    answer: string;
    answeredAt: number;
  }): Promise<void>;
  /** The link ended: the waiting execution goes on by branch `timeout` with `{timedOut: true}`. Idempotent. */
  closeQuestion(closing: {
    executionId: string;
    nodeKey: string;
    questionId: string;
    closedAt: number;
  }): Promise<void>;
}

/** A page of `eraseRecords`: where to go on (null: done), what was erased. */
export type ErasurePage = { next: string | null; executions: number; requests: number };

/** A page of `resealRecords`: where to go on (null: done) and what was sealed again. */
export type ResealPage = { next: string | null; executions: number; keptInputs: number };

/** The runner as its namespace binding knows it. */
export interface WorkflowRunnerContract
  extends WorkflowRunnerApi,
    WorkflowRunnerQuestions,
    Rpc.DurableObjectBranded {}
