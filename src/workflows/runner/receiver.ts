/**
 * The WorkflowRunner's webhook half (docs/architecture.md#workflow-runner, docs/webhooks.md): checks
 * 404 (or stopped), handshakes (docs/webhooks.md#handshakes), 405, 429 (this shard's share,
 * docs/scaling.md#runner-shards), signature, body, deduplication; gathers (debounce, batch) or
 * starts the execution under its flow control, answers per responseMode, logs and counts the call.
 */
import { log } from "../../platform/log";
import type { WebhookNode, WebhookVerify } from "../nodes/types";
import { answerHandshake, handshakeOf } from "../webhook/handshakes";
import { renderReply } from "../webhook/http-answer";
import {
  checkSignature,
  type SignedRequest,
  signatureOf,
  type VerifyResult,
  verifyCall,
} from "../webhook/signatures";
import { recordCall } from "./call-record";
import type { RunnerConfig } from "./config";
import type {
  DirectOutcome,
  ShardAnswer,
  WebhookCall,
  WebhookOutcome,
  WorkflowRunnerContract,
} from "./contract";
import type { Deliveries } from "./dedupe-claims";
import { idCreatedAt } from "./execution-row";
import type { Executor } from "./executor";
import type { Gatherings } from "./gatherings";
import type { HookSecrets } from "./hook-secrets";
import { type LateAnswers, webhookNode } from "./late-answers";
import type { RunnerMetrics } from "./metrics-store";
import type { NodeRateLimits, RateStamp } from "./rate-window";
import type { RequestLog } from "./request-log";
import type { RequestOutcome } from "./request-log-entry";
import { shardOfId, shareOf } from "./shards";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import type { WorkflowSource } from "./workflow-source";

/** What answering a call needs from the runner. */
export type ReceiverParts = {
  source: WorkflowSource;
  executor: Executor;
  /** The nodes' rate limits, whose counted times the request log keeps (docs/scaling.md#rate-limits). */
  rateLimits: NodeRateLimits;
  deliveries: Deliveries;
  /** Asana's kept hook secrets (docs/webhooks.md#handshakes). */
  hookSecrets: HookSecrets;
  late: LateAnswers;
  requests: RequestLog;
  /** The runner's hourly counters (docs/operations.md#metrics). */
  metrics: RunnerMetrics;
  /** Debounced and batched calls (docs/webhooks.md#debounce, docs/webhooks.md#batch). */
  gatherings: Gatherings;
  /** Another shard of a workflow's runners (for the first call of a repeated delivery). */
  shard: (workflowId: string, shard: number) => DurableObjectStub<WorkflowRunnerContract>;
};

/** An outcome and, for the request log only, why it was refused, that it was queued or gathered. */
type Answer = {
  outcome: WebhookOutcome | Extract<ShardAnswer, { kind: "shard_full" }>;
  reason?: string;
  queued?: boolean;
  logged?: RequestOutcome;
};

/**
 * The secret that verified the call, by name (docs/webhooks.md#rotation), its signature, and the
 * rate limit's count of it, for its log entry.
 */
type Verified = { with?: string; signature?: string; rate?: RateStamp };

/** A shard told another shard count re-reads a copy older than this (ms): D1 may hold a newer save. */
const RECHECK_AFTER_MS = 1_000;

/** Receives a workflow's webhook calls and answers them. */
export class WebhookReceiver {
  constructor(private readonly parts: ReceiverParts) {}

  /** Answers one call (docs/api/webhooks.md#responses) and records it in the request log. */
  async receive(call: WebhookCall): Promise<WebhookOutcome | ShardAnswer> {
    const { source } = this.parts;
    const here = shardOfId(call.executionId);
    let config = await source.workflow(call.workflowId);
    if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
    if (!routedHere(config, call, here)) {
      config = await source.recheck(call.workflowId, RECHECK_AFTER_MS);
      if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
      // Nothing is counted or logged here: the Worker sends the call again to a shard of these.
      if (!routedHere(config, call, here)) return { kind: "reshard", shards: config.shards };
    }
    const node = webhookNode(config, call.nodeKey);
    if (!node) return { kind: "not_found", stale: false };
    const verified: Verified = {};
    const { outcome, reason, queued, logged } = await this.answer(
      config,
      node,
      call,
      here,
      verified,
    );
    // Another shard may have room: the Worker asks it, and only the last one asked logs the call.
    if (outcome.kind === "shard_full") return outcome;
    const { rateLimits } = this.parts;
    const rateAt = rateLimits.take(verified.rate);
    const shown = { outcome, reason: reason ?? null, queued, logged, verifiedWith: verified.with };
    await recordCall(this.parts, config, node, call, here, { ...shown, rateAt }).catch(
      async (e) => {
        // No entry took the counted time: written on its own, a restart still counts the call.
        if (rateAt !== undefined && verified.rate) await rateLimits.keep([verified.rate]);
        throw e;
      },
    );
    return outcome;
  }

  private async answer(
    config: RunnerConfig,
    node: WebhookNode,
    call: WebhookCall,
    here: number,
    verified: Verified,
  ): Promise<Answer> {
    const { executor, rateLimits, source, deliveries, late } = this.parts;
    // A stopped workflow's URLs answer 404 (docs/api/webhooks.md#responses); the log says why.
    if (config.status !== "running") return { outcome: { kind: "not_found", stale: false } };
    // A handshake is answered whatever the node's method (docs/webhooks.md#handshakes).
    const handshake = node.verify ? handshakeOf(node.verify, call) : null;
    if (!handshake && call.method !== node.httpMethod) {
      return { outcome: { kind: "method_not_allowed", allow: node.httpMethod } };
    }
    // Each shard enforces its share; the shares add up to the node's limit (docs/scaling.md#rate-limits).
    const limit = node.rateLimitPerMinute;
    const share = shareOf(limit, config.shards, here);
    const { decision: rate, stamp } = await rateLimits.attempt(node.key, share, 60_000);
    verified.rate = stamp;
    if (!rate.allowed) {
      const { retryAfterSeconds } = rate;
      if (call.spill) return { outcome: { kind: "shard_full", retryAfterSeconds } };
      return { outcome: { kind: "rate_limited", retryAfterSeconds, limit } };
    }
    const secrets = await source.secretValues(config.workspaceId);
    // Unsigned handshakes carry no signature: each is checked as answerHandshake says.
    if (node.verify && call.body && (handshake === null || handshake.signed)) {
      const signed = { url: call.url, method: call.method, headers: call.headers, body: call.body };
      const { refusal, verifiedWith, signature } = await this.verify(
        config,
        node.key,
        node.verify,
        signed,
        secrets,
        here,
      );
      verified.with = verifiedWith;
      verified.signature = signature;
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
    if (handshake && node.verify) {
      const { workflowId } = config;
      const keep = (secret: string) =>
        this.parts.hookSecrets.keep(workflowId, node.key, secret, here);
      return await answerHandshake(handshake, node.verify, secrets, keep);
    }
    if (!call.input.ok) {
      const { status, message } = call.input;
      return { outcome: { kind: "bad_body", status, message }, reason: message };
    }
    const { output } = call.input;
    const { executionId, workflowId } = call;
    const signature = node.verify
      ? signatureOf(node.verify, call.headers, verified.signature)
      : null;
    const first = await deliveries.claim(workflowId, node, executionId, output, signature);
    if (first) {
      const answer =
        node.responseMode === "immediate"
          ? accepted(first, renderReply(node, output, first))
          : await this.firstAnswer(workflowId, node, first, here);
      return { outcome: { kind: "deduplicated", first: answer } };
    }
    if (node.debounce || node.batch)
      return await this.parts.gatherings.answer(config, node, call, output);
    // From here to `start` nothing is awaited: the queue cannot fill up in between.
    if (executor.queueFull(config, node, output)) {
      deliveries.started(executionId);
      // Not started: the sender's retry must not be taken for a repeat.
      await deliveries.release(workflowId, executionId);
      return { outcome: { kind: "queue_full", retryAfterSeconds: QUEUE_FULL_RETRY_SECONDS } };
    }
    const settled =
      node.responseMode !== "immediate"
        ? executor.waitFor(executionId, node.responseTimeoutSeconds * 1000)
        : undefined;
    let started: Awaited<ReturnType<Executor["start"]>>;
    try {
      // Created when the call came in, the time its id carries: its record is keyed by the id.
      const createdAt = idCreatedAt(executionId) ?? undefined;
      const options = createdAt === undefined ? {} : { createdAt };
      const starting = executor.start(config, node, executionId, output, secrets, options);
      // Recorded (in memory) by now: a repeat that asks this shard about it finds it.
      deliveries.started(executionId);
      started = await starting;
    } catch (error) {
      deliveries.started(executionId);
      // Nothing started: a retry of this delivery must not be taken for a repeat.
      await deliveries.release(workflowId, executionId);
      throw error;
    }
    const queued = started === "queued";
    if (settled) return { outcome: await late.withHandle(workflowId, await settled), queued };
    const reply = renderReply(node, output, executionId);
    return { outcome: accepted(executionId, reply, queued), queued };
  }

  /** Checks a call's signature; asana's with the hook secret its handshake left (none: refused). */
  private async verify(
    config: RunnerConfig,
    nodeKey: string,
    verify: WebhookVerify,
    signed: SignedRequest,
    secrets: Awaited<ReturnType<WorkflowSource["secretValues"]>>,
    here: number,
  ): Promise<VerifyResult> {
    if (verify.preset !== "asana") return await verifyCall(verify, secrets, signed);
    const kept = await this.parts.hookSecrets.get(config.workflowId, nodeKey, here);
    const out: { signature?: string } = {};
    const refusal = await checkSignature(verify, kept ?? undefined, signed, Date.now(), out);
    // The kept hook secret is no workspace secret: the log names the header it came in.
    if (refusal) return { refusal };
    return { refusal: null, verifiedWith: "X-Hook-Secret", signature: out.signature };
  }

  /** A repeated delivery's first answer, from the shard its execution id names. */
  private async firstAnswer(
    workflowId: string,
    node: WebhookNode,
    first: string,
    here: number,
  ): Promise<DirectOutcome> {
    const shard = shardOfId(first);
    if (shard === here) return await this.parts.late.firstAnswer(workflowId, node, first);
    return await this.parts.shard(workflowId, shard).repeatAnswer(workflowId, node.key, first);
  }

  /** Answers the first call of a repeated delivery as it was answered, for the shard that runs it. */
  async repeatAnswer(
    workflowId: string,
    nodeKey: string,
    executionId: string,
  ): Promise<DirectOutcome> {
    const { deliveries, late, source } = this.parts;
    await deliveries.whenStarted(executionId);
    const config = await source.workflow(workflowId);
    const node = config ? webhookNode(config, nodeKey) : undefined;
    if (!node) return { kind: "accepted", executionId };
    return await late.firstAnswer(workflowId, node, executionId);
  }
}

/** The `accepted` outcome of an immediate call, with the node's own reply if it has one. */
function accepted(
  executionId: string,
  reply: ReturnType<typeof renderReply>,
  queued = false,
): Extract<DirectOutcome, { kind: "accepted" }> {
  return {
    kind: "accepted",
    executionId,
    ...(queued ? { queued } : {}),
    ...(reply ? { reply } : {}),
  };
}

/** Whether the Worker sent the call to a shard of as many as this shard knows the workflow has. */
function routedHere(config: RunnerConfig, call: WebhookCall, here: number): boolean {
  return call.shards === config.shards && here < config.shards;
}

export function namesThisWorkflow(config: RunnerConfig, call: WebhookCall): boolean {
  return (
    config.workflowId === call.workflowId &&
    config.workspaceSlug === call.workspaceSlug &&
    config.slug === call.workflowSlug
  );
}
