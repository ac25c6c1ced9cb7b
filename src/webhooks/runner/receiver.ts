/**
 * The WorkflowRunner's webhook half (docs/architecture.md#workflow-runner, docs/webhooks.md):
 * decides each call in the order 404 (or stopped), 405, 429, signature, body, deduplication, then
 * starts its execution and answers as the node's responseMode says; records every call it answered
 * in the request log; serves result handles and re-attached callers.
 */
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { RateLimitStore } from "../../platform/rate-limit-store";
import { redactPrepared } from "../../workflow/redact";
import { everyTemplateResolves, resolveValue, valueAsText } from "../../workflow/template";
import type { WebhookNode, WebhookOutput } from "../../workflow/types";
import { dedupeKeyTemplate } from "../../workflow/validate-verify";
import { renderReply } from "../reply";
import { verifyCall } from "../signatures";
import { respondedOutcome } from "./answers";
import type { RunnerConfig } from "./config";
import type {
  DirectOutcome,
  ExecutionRecord,
  ResultState,
  Settled,
  WebhookCall,
  WebhookOutcome,
} from "./contract";
import type { DedupeStore } from "./dedupe-store";
import type { Executor } from "./executor";
import { loggedOutcome, statusOf } from "./outcome-status";
import type { RequestLog } from "./request-log";
import { redactHeaders } from "./request-log-entry";
import type { ResultTokens } from "./result-tokens";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import type { WorkflowSource } from "./workflow-source";

/** What answering a call needs from the runner. */
export type ReceiverParts = {
  source: WorkflowSource;
  executor: Executor;
  rateLimits: RateLimitStore;
  dedupe: DedupeStore;
  results: ResultTokens;
  requests: RequestLog;
};

/** An outcome and, for the request log only, why it was refused or that it was queued. */
type Answer = { outcome: WebhookOutcome; reason?: string; queued?: boolean };

/** Outcomes a sender can repeat without limit: the log keeps their body's preview only. */
const FLOODS = new Set(["rate_limited", "method_not_allowed", "not_found", "queue_full"]);

/** Receives a workflow's webhook calls and answers them. */
export class WebhookReceiver {
  constructor(private readonly parts: ReceiverParts) {}

  /** Answers one call (docs/api/webhooks.md#responses) and records it in the request log. */
  async receive(call: WebhookCall): Promise<WebhookOutcome> {
    const config = await this.parts.source.workflow(call.workflowId);
    if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
    const node = webhookNode(config, call.nodeKey);
    if (!node) return { kind: "not_found", stale: false };
    const { outcome, reason, queued } = await this.answer(config, node, call);
    await this.record(config, node, call, { outcome, reason: reason ?? null, queued });
    return outcome;
  }

  private async answer(
    config: RunnerConfig,
    node: WebhookNode,
    call: WebhookCall,
  ): Promise<Answer> {
    const { executor, rateLimits, source } = this.parts;
    // A stopped workflow's URLs answer 404 (spec 3); the log says why.
    if (config.status !== "running") return { outcome: { kind: "not_found", stale: false } };
    if (call.method !== node.httpMethod) {
      return { outcome: { kind: "method_not_allowed", allow: node.httpMethod } };
    }
    const rate = await rateLimits.attempt(`webhook/${node.key}`, node.rateLimitPerMinute, 60_000);
    if (!rate.allowed) {
      const { retryAfterSeconds, limit } = rate;
      return { outcome: { kind: "rate_limited", retryAfterSeconds, limit } };
    }
    const secrets = await source.secretValues(config.workspaceId);
    if (node.verify && call.body) {
      const signed = { url: call.url, headers: call.headers, body: call.body };
      const refusal = await verifyCall(node.verify, secrets, signed);
      if (refusal) {
        // Why is logged and recorded, never told: it would help whoever forged the call.
        log("warn", "webhook_signature_refused", {
          workflowId: config.workflowId,
          node: node.key,
          reason: refusal,
        });
        return { outcome: { kind: "invalid_signature" }, reason: refusal };
      }
    }
    if (!call.input.ok) {
      const { status, message } = call.input;
      return { outcome: { kind: "bad_body", status, message }, reason: message };
    }
    const { output } = call.input;
    const { concurrency } = config.definition;
    const first = this.claimDelivery(node, call.executionId, output);
    if (first) {
      const answer = await this.answerOf(call.workflowId, node, first, output);
      return {
        outcome: { kind: "deduplicated", first: await this.withHandle(call.workflowId, answer) },
      };
    }
    if (executor.queueFull(concurrency)) {
      // Not started: the sender's retry must not be taken for a repeat.
      this.parts.dedupe.release(call.executionId);
      return { outcome: { kind: "queue_full", retryAfterSeconds: QUEUE_FULL_RETRY_SECONDS } };
    }
    const settled =
      node.responseMode !== "immediate"
        ? executor.waitFor(call.executionId, node.responseTimeoutSeconds * 1000)
        : undefined;
    let started: Awaited<ReturnType<Executor["start"]>>;
    try {
      // No await since the check above: the queue cannot have filled up meanwhile.
      started = await executor.start(config, node, call.executionId, output, secrets);
    } catch (error) {
      // Nothing started: a retry of this delivery must not be taken for a repeat.
      this.parts.dedupe.release(call.executionId);
      throw error;
    }
    const queued = started === "queued";
    if (settled) return { outcome: await this.withHandle(call.workflowId, await settled), queued };
    const reply = renderReply(node, output, call.executionId);
    const { executionId } = call;
    return {
      outcome: {
        kind: "accepted",
        executionId,
        ...(queued ? { queued } : {}),
        ...(reply ? { reply } : {}),
      },
      queued,
    };
  }

  /** Adds the call to the request log (docs/webhooks.md#request-log). */
  private async record(
    config: RunnerConfig,
    node: WebhookNode,
    call: WebhookCall,
    {
      outcome,
      reason,
      queued,
    }: { outcome: WebhookOutcome; reason: string | null; queued?: boolean },
  ): Promise<void> {
    const secrets = await this.parts.source.secretValues(config.workspaceId);
    const answered = outcome.kind === "deduplicated" ? outcome.first : outcome;
    this.parts.requests.record(
      {
        requestId: call.requestId,
        receivedAt: call.receivedAt,
        nodeKey: node.key,
        method: call.method,
        status: statusOf(answered),
        outcome: queued ? "queued" : loggedOutcome(outcome),
        executionId: "executionId" in answered ? answered.executionId : null,
        latencyMs: Math.max(0, Date.now() - call.receivedAt),
        size: call.size,
        headers: redactPrepared(redactHeaders(call.headers, node.verify?.header), secrets.redact),
        reason,
        body: call.body,
        // Refusals that come in floods keep their preview only (docs/webhooks.md#request-log).
        keepBody: !FLOODS.has(outcome.kind === "deduplicated" ? outcome.first.kind : outcome.kind),
      },
      secrets.redact,
    );
  }

  /** A timed-out lastNode outcome gets a result handle (docs/webhooks.md#result-handles). */
  private async withHandle<T extends DirectOutcome>(workflowId: string, outcome: T): Promise<T> {
    if (outcome.kind !== "timeout" || outcome.resultToken) return outcome;
    return {
      ...outcome,
      resultToken: await this.parts.results.issue(workflowId, outcome.executionId),
    };
  }

  /** The result behind a handle: settled, still running, or null for an unknown or expired one. */
  async result(token: string): Promise<ResultState | null> {
    const { executor, results } = this.parts;
    const executionId = await results.find(token);
    if (!executionId) return null;
    const settled = executor.settledOutcome(executionId);
    if (settled) return settled;
    const record = await executor.store.get(executionId);
    if (!record) return null;
    return settledFromRecord(record) ?? { kind: "running", executionId };
  }

  /** The first execution of a repeated delivery (docs/webhooks.md#deduplication), or null. */
  private claimDelivery(node: WebhookNode, executionId: string, output: WebhookOutput) {
    const template = dedupeKeyTemplate(node);
    if (!template || !node.dedupe) return null;
    const scope = { outputs: { [node.key]: output as unknown as JsonValue }, secrets: {} };
    if (!everyTemplateResolves(template, scope)) return null;
    const key = valueAsText(resolveValue(template, scope));
    const windowMs = node.dedupe.windowSeconds * 1000;
    return this.parts.dedupe.claim(node.key, key, executionId, Date.now(), windowMs);
  }

  /** What the first call of a repeated delivery got, or gets once it settles. */
  private async answerOf(
    workflowId: string,
    node: WebhookNode,
    executionId: string,
    output: WebhookOutput,
  ): Promise<DirectOutcome> {
    const { executor } = this.parts;
    if (node.responseMode === "immediate") {
      const reply = renderReply(node, output, executionId);
      return { kind: "accepted", executionId, ...(reply ? { reply } : {}) };
    }
    const justSettled = executor.settledOutcome(executionId);
    if (justSettled) return justSettled;
    const attached = await this.attach(workflowId, executionId);
    if (attached && attached.kind !== "deduplicated") return attached;
    // Not recorded yet: the first call is still on its first stretch of nodes.
    if (executor.isRunning(executionId)) {
      return await executor.waitFor(executionId, node.responseTimeoutSeconds * 1000);
    }
    return { kind: "accepted", executionId };
  }

  /** Re-attaches a lastNode caller after a restart; null for an unknown execution. */
  async attach(workflowId: string, executionId: string): Promise<WebhookOutcome | null> {
    const { executor, source } = this.parts;
    const record = await executor.store.get(executionId);
    if (!record) return null;
    const config = await source.workflow(workflowId);
    const node = config?.definition.nodes.find((n) => n.key === record.trigger.key);
    if (node?.type !== "webhook" || node.responseMode === "immediate") {
      return { kind: "accepted", executionId };
    }
    const answered = settledFromRecord(record);
    if (answered) return answered;
    const left = record.startedAt + node.responseTimeoutSeconds * 1000 - Date.now();
    const held = left > 0 ? await executor.waitFor(executionId, left) : null;
    return this.withHandle(workflowId, held ?? { kind: "timeout", executionId });
  }
}

export function namesThisWorkflow(config: RunnerConfig, call: WebhookCall): boolean {
  return (
    config.workflowId === call.workflowId &&
    config.workspaceSlug === call.workspaceSlug &&
    config.slug === call.workflowSlug
  );
}

/** The webhook node of the workflow with this key, running or not. */
export function webhookNode(config: RunnerConfig, key: string): WebhookNode | undefined {
  const node = config.definition.nodes.find((n) => n.key === key);
  return node?.type === "webhook" ? node : undefined;
}

/** The recorded answer: a respond node's reply (even while the run goes on), else once finished. */
export function settledFromRecord(record: ExecutionRecord): Settled | null {
  const responded = respondedOutcome(record.id, record.nodes, []);
  if (responded) return responded;
  if (record.status === "running" || record.status === "queued") return null;
  if (record.status === "failed") {
    const failed = record.nodes.find((run) => run.status === "failed");
    return { kind: "failed", executionId: record.id, nodeKey: failed?.key ?? null };
  }
  const last = record.nodes.filter((run) => run.status === "succeeded").at(-1);
  return { kind: "succeeded", executionId: record.id, output: last?.output ?? null };
}
