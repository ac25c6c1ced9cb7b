/**
 * WorkflowRunner: one SQLite-backed Durable Object per workflow (named by workflow id), the only
 * place its executions run (docs/architecture.md#workflow-runner).
 *
 * Responsibilities:
 * - Receiving webhook calls: the 404/405/429/413/422 decisions in that order against the workflow's
 *   current definition (`WorkflowSource`), and the built-in rate limit per webhook node (exact
 *   sliding window, persisted like the launch API's).
 * - Starting executions from webhook calls and conversation events, run by the `Executor`; the
 *   alarm continues the ones that wait or were interrupted.
 * - Holding lastNode callers in memory, each until its deadline (responseTimeoutSeconds). If the
 *   object restarts while a caller waits, the Worker re-attaches through `attach`, which answers
 *   from the stored record.
 */
import { DurableObject } from "cloudflare:workers";
import { database } from "../../db/database";
import type { AppBindings } from "../../platform/env";
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import { RateLimitStore } from "../../platform/rate-limit-store";
import { everyTemplateResolves, resolveValue, valueAsText } from "../../workflow/template";
import type { WebhookNode, WebhookOutput } from "../../workflow/types";
import { dedupeKeyTemplate } from "../../workflow/validate-verify";
import { renderReply } from "../reply";
import { verifyCall } from "../signatures";
import { respondedOutcome } from "./answers";
import type { RunnerConfig } from "./config";
import type {
  DirectOutcome,
  EventCall,
  ExecutionPage,
  ExecutionRecord,
  ResultState,
  Settled,
  WebhookCall,
  WebhookOutcome,
  WorkflowRunnerContract,
} from "./contract";
import { DedupeStore } from "./dedupe-store";
import { ExecutionStore } from "./execution-store";
import { Executor } from "./executor";
import { ResultTokens } from "./result-tokens";
import { emptySecrets, WorkflowSource } from "./workflow-source";

/** One workflow's runner (docs/architecture.md#workflow-runner): receives calls, runs and records executions. */
export class WorkflowRunner extends DurableObject<AppBindings> implements WorkflowRunnerContract {
  private readonly source: WorkflowSource;
  private readonly executor: Executor;
  private readonly rateLimits: RateLimitStore;
  private readonly dedupe: DedupeStore;
  private readonly results: ResultTokens;

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    this.source = new WorkflowSource(database(env), env.SECRETS_KEY);
    this.executor = new Executor(ctx, new ExecutionStore(ctx.storage, env.SECRETS_KEY));
    this.rateLimits = new RateLimitStore(ctx.storage, (promise) => ctx.waitUntil(promise));
    this.dedupe = new DedupeStore(ctx.storage.sql);
    this.results = new ResultTokens(ctx.storage.sql);
    void ctx.blockConcurrencyWhile(() => this.executor.load());
  }

  async configure(workflowId: string): Promise<void> {
    if ((await this.source.reload(workflowId)) === null) {
      // Deleted: its executions, rate-limit log and alarm go with it. Records waiting to be
      // written are forgotten first, so none is written after the deletion.
      this.executor.store.forget();
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    }
  }

  async secretsChanged(): Promise<void> {
    this.source.secretsChanged();
  }

  async receive(call: WebhookCall): Promise<WebhookOutcome> {
    const config = await this.source.workflow(call.workflowId);
    if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
    const node = findWebhook(config, call);
    if (!node) return { kind: "not_found", stale: false };
    if (call.method !== node.httpMethod) {
      return { kind: "method_not_allowed", allow: node.httpMethod };
    }
    const rate = await this.rateLimits.attempt(
      `webhook/${node.key}`,
      node.rateLimitPerMinute,
      60_000,
    );
    if (!rate.allowed) {
      return { kind: "rate_limited", retryAfterSeconds: rate.retryAfterSeconds, limit: rate.limit };
    }
    const secrets = await this.source.secretValues(config.workspaceId);
    if (node.verify && call.signed) {
      const refusal = await verifyCall(node.verify, secrets, call.signed);
      if (refusal) {
        log("warn", "webhook_signature_refused", {
          workflowId: call.workflowId,
          node: node.key,
          reason: refusal,
        });
        return { kind: "invalid_signature" };
      }
    }
    if (!call.input.ok) {
      return { kind: "bad_body", status: call.input.status, message: call.input.message };
    }
    const { output } = call.input;
    const first = this.claimDelivery(node, call.executionId, output);
    if (first)
      return {
        kind: "deduplicated",
        first: await this.withHandle(
          call.workflowId,
          await this.answerOf(call.workflowId, node, first, output),
        ),
      };
    const settled =
      node.responseMode !== "immediate"
        ? this.executor.waitFor(call.executionId, node.responseTimeoutSeconds * 1000)
        : undefined;
    try {
      await this.executor.start(config, node, call.executionId, output, secrets);
    } catch (error) {
      // Nothing started: a retry of this delivery must not be taken for a repeat.
      this.dedupe.release(call.executionId);
      throw error;
    }
    if (settled) return await this.withHandle(call.workflowId, await settled);
    const reply = renderReply(node, call.input.output, call.executionId);
    return { kind: "accepted", executionId: call.executionId, ...(reply ? { reply } : {}) };
  }

  /** A timed-out lastNode outcome gets a result handle (docs/webhooks.md#result-handles). */
  private async withHandle<T extends DirectOutcome>(workflowId: string, outcome: T): Promise<T> {
    if (outcome.kind !== "timeout" || outcome.resultToken) return outcome;
    return { ...outcome, resultToken: await this.results.issue(workflowId, outcome.executionId) };
  }

  /** The result behind a handle: settled, still running, or null for an unknown or expired one. */
  async result(token: string): Promise<ResultState | null> {
    const executionId = await this.results.find(token);
    if (!executionId) return null;
    const settled = this.executor.settledOutcome(executionId);
    if (settled) return settled;
    const record = await this.executor.store.get(executionId);
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
    return this.dedupe.claim(
      node.key,
      key,
      executionId,
      Date.now(),
      node.dedupe.windowSeconds * 1000,
    );
  }

  /** What the first call of a repeated delivery got, or gets once it settles. */
  private async answerOf(
    workflowId: string,
    node: WebhookNode,
    executionId: string,
    output: WebhookOutput,
  ): Promise<DirectOutcome> {
    if (node.responseMode === "immediate") {
      const reply = renderReply(node, output, executionId);
      return { kind: "accepted", executionId, ...(reply ? { reply } : {}) };
    }
    const justSettled = this.executor.settledOutcome(executionId);
    if (justSettled) return justSettled;
    const attached = await this.attach(workflowId, executionId);
    if (attached && attached.kind !== "deduplicated") return attached;
    // Not recorded yet: the first call is still on its first stretch of nodes.
    if (this.executor.isRunning(executionId)) {
      return await this.executor.waitFor(executionId, node.responseTimeoutSeconds * 1000);
    }
    return { kind: "accepted", executionId };
  }

  async startFromEvent(call: EventCall): Promise<boolean> {
    const config = await this.source.workflow(call.workflowId);
    if (config?.status !== "running" || config.workflowId !== call.workflowId) return false;
    const node = config.definition.nodes.find((n) => n.key === call.nodeKey);
    if (
      node?.type !== "conversation_event" ||
      node.agentId !== call.agentId ||
      !node.events.includes(call.event)
    ) {
      return false;
    }
    const secrets = await this.source.secretValues(config.workspaceId);
    const known = await this.executor.store.get(call.executionId);
    // No await from this check to `start`, which marks the execution in flight at once, so two
    // concurrent deliveries of one event cannot both pass.
    if (known || this.executor.isRunning(call.executionId)) return false;
    await this.executor.start(config, node, call.executionId, call.output, secrets);
    return true;
  }

  async attach(workflowId: string, executionId: string): Promise<WebhookOutcome | null> {
    const record = await this.executor.store.get(executionId);
    if (!record) return null;
    const config = await this.source.workflow(workflowId);
    const node = config?.definition.nodes.find((n) => n.key === record.trigger.key);
    if (node?.type !== "webhook" || node.responseMode === "immediate") {
      return { kind: "accepted", executionId };
    }
    const answered = settledFromRecord(record);
    if (answered) return answered;
    const left = record.startedAt + node.responseTimeoutSeconds * 1000 - Date.now();
    const held = left > 0 ? await this.executor.waitFor(executionId, left) : null;
    return this.withHandle(workflowId, held ?? { kind: "timeout", executionId });
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return await this.executor.store.get(executionId);
  }

  async listExecutions(limit: number, startingAfter?: string): Promise<ExecutionPage> {
    return await this.executor.store.list(limit, startingAfter);
  }

  /** Continues every execution whose wait ended or whose fetch was interrupted. */
  override async alarm(): Promise<void> {
    await this.executor.runDue(async (workflowId) => {
      const config = await this.source.workflow(workflowId);
      return config ? await this.source.secretValues(config.workspaceId) : emptySecrets();
    });
  }
}

function namesThisWorkflow(config: RunnerConfig, call: WebhookCall): boolean {
  return (
    config.workflowId === call.workflowId &&
    config.workspaceSlug === call.workspaceSlug &&
    config.slug === call.workflowSlug
  );
}

/** The running workflow's webhook node the call names; a stopped workflow has none (spec 3). */
function findWebhook(config: RunnerConfig, call: WebhookCall): WebhookNode | undefined {
  if (config.status !== "running") return undefined;
  const node = config.definition.nodes.find((n) => n.key === call.nodeKey);
  return node?.type === "webhook" ? node : undefined;
}

/** The recorded answer: a respond node's reply (even while the run goes on), else once finished. */
function settledFromRecord(record: ExecutionRecord): Settled | null {
  const responded = respondedOutcome(record.id, record.nodes, []);
  if (responded) return responded;
  if (record.status === "running") return null;
  if (record.status === "failed") {
    const failed = record.nodes.find((run) => run.status === "failed");
    return { kind: "failed", executionId: record.id, nodeKey: failed?.key ?? null };
  }
  const last = record.nodes.filter((run) => run.status === "succeeded").at(-1);
  return { kind: "succeeded", executionId: record.id, output: last?.output ?? null };
}
