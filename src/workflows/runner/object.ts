/**
 * WorkflowRunner: one SQLite-backed Durable Object per workflow or shard
 * (docs/architecture.md#workflow-runner, docs/scaling.md#runner-shards). Composes the receiver,
 * `Executor`, `RequestLog`, `CaptureStore`, `TestRuns` and `RunnerMetrics`; after a restart a held caller
 * re-attaches through `attach`.
 */
import { DurableObject } from "cloudflare:workers";
import { database } from "../../db/database";
import type { AppBindings } from "../../platform/env";
import { outboundPolicy } from "../../platform/outbound";
import { CaptureStore, type Sample } from "./capture-store";
import { workflowRunner } from "./client";
import type {
  CaptureOutcome,
  DirectOutcome,
  EventCall,
  ExecutionMode,
  ExecutionPage,
  ExecutionRecord,
  ReplayResult,
  ResealPage,
  ResultState,
  ShardAnswer,
  TestRunResult,
  WebhookCall,
  WebhookOutcome,
  WorkflowRunnerContract,
} from "./contract";
import { Deliveries } from "./dedupe-claims";
import { DedupeStore, type DeliveryKey } from "./dedupe-store";
import { startFromEvent } from "./event-starts";
import { listExecutionsBefore } from "./execution-pages";
import { ExecutionStore } from "./execution-store";
import { Executor } from "./executor";
import { listWithGatherings } from "./gathering-list";
import { Gatherings } from "./gatherings";
import { asanaNodes, HookSecretStore, HookSecrets } from "./hook-secrets";
import { Housekeeping } from "./housekeeping";
import { LateAnswers } from "./late-answers";
import type { MetricBucket } from "./metrics-counts";
import { RunnerMetrics } from "./metrics-store";
import { personActs } from "./person-actions";
import { Questions } from "./questions";
import { WebhookReceiver } from "./receiver";
import { eraseFromRunner } from "./record-housekeeping";
import { Replays } from "./replays";
import { RequestLog } from "./request-log";
import type { LoggedRequest, LoggedRequestDetail } from "./request-log-entry";
import { resealRecords } from "./reseal-records";
import { ResultTokens } from "./result-tokens";
import { StateBox } from "./state-box";
import { TestRuns } from "./test-runs";
import { emptySecrets, WorkflowSource } from "./workflow-source";

/** One workflow's runner: receives calls, runs and records executions. */
export class WorkflowRunner extends DurableObject<AppBindings> implements WorkflowRunnerContract {
  private readonly source: WorkflowSource;
  private readonly executor: Executor;
  private readonly receiver: WebhookReceiver;
  private readonly late: LateAnswers;
  private readonly deliveries: Deliveries;
  private readonly hookSecrets: HookSecrets;
  private readonly requests: RequestLog;
  private readonly captures: CaptureStore;
  private readonly replays: Replays;
  private readonly tests: TestRuns;
  private readonly metrics: RunnerMetrics;
  private readonly housekeeping: Housekeeping;
  private readonly gatherings: Gatherings;
  private readonly questions: Questions;
  private deleted = false;

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    this.source = new WorkflowSource(database(env), env);
    this.metrics = new RunnerMetrics(ctx.storage, (at) => this.executor.wakeAt(at));
    const store = new ExecutionStore(ctx.storage, env, (result) => this.metrics.execution(result));
    const config = (workflowId: string) => this.source.workflow(workflowId);
    const secretsFor = async (workflowId: string) => {
      const found = await config(workflowId);
      return found ? await this.source.secretValues(found.workspaceId) : emptySecrets();
    };
    const acts = personActs(env, async (id) => (await config(id))?.workspaceId);
    const limitFor = async (id: string) => (await config(id))?.definition.concurrency;
    this.executor = new Executor(ctx, store, secretsFor, limitFor, outboundPolicy(env), acts);
    this.questions = new Questions(this.executor, secretsFor);
    this.requests = new RequestLog(ctx.storage, (promise) => ctx.waitUntil(promise));
    this.captures = new CaptureStore(ctx.storage.sql);
    const shard = (workflowId: string, index: number) => workflowRunner(env, workflowId, index);
    this.late = new LateAnswers({
      source: this.source,
      executor: this.executor,
      results: new ResultTokens(ctx.storage.sql),
    });
    this.deliveries = new Deliveries(new DedupeStore(ctx.storage.sql), (id) => shard(id, 0));
    this.hookSecrets = new HookSecrets(new HookSecretStore(ctx.storage.sql, env), shard);
    const { source, executor, deliveries } = this;
    this.gatherings = new Gatherings(ctx, new StateBox(env), { source, executor, deliveries });
    this.receiver = new WebhookReceiver({
      source: this.source,
      executor: this.executor,
      rateLimits: this.requests.rates,
      deliveries: this.deliveries,
      hookSecrets: this.hookSecrets,
      late: this.late,
      requests: this.requests,
      metrics: this.metrics,
      gatherings: this.gatherings,
      shard,
    });
    this.replays = new Replays(this.source, this.executor, ctx.storage.sql);
    this.tests = new TestRuns(this.source, this.executor, this.captures);
    this.housekeeping = new Housekeeping(ctx.storage, this.source, this.requests, this.executor);
    void ctx.blockConcurrencyWhile(async () => {
      await this.executor.load();
      void this.replays.drain(); // bulk replays a restart interrupted go on
    });
  }

  async configure(workflowId: string): Promise<void> {
    const config = await this.source.reload(workflowId);
    // A raised or removed limit lets queued executions start now (docs/webhooks.md#concurrency).
    if (config) {
      this.executor.limitChanged(config.definition.concurrency);
      // Saved without asana, a node's kept hook secret is reset (docs/webhooks.md#handshakes).
      this.hookSecrets.local.keepOnly(asanaNodes(config.definition.nodes));
      await this.housekeeping.arm();
    } else {
      // Deleted: nothing is written again (a write under way, a late alarm) after this.
      this.deleted = true;
      this.executor.store.forget();
      this.requests.forget();
      this.metrics.forget();
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    }
  }

  async secretsChanged(): Promise<void> {
    this.source.secretsChanged();
  }

  async eraseRecords(externalId: string, after: string | null, limit: number) {
    const { executor, requests, gatherings } = this;
    const parts = { storage: this.ctx.storage, executor, requests, gatherings };
    return eraseFromRunner(parts, new StateBox(this.env), externalId, { after, limit });
  }

  async resealRecords(after: string | null, limit: number): Promise<ResealPage> {
    await this.executor.store.settle();
    if (after === null) await this.hookSecrets.local.reseal();
    const page = await resealRecords(this.ctx.storage, new StateBox(this.env), after, limit);
    if (after === null) page.executions += await this.gatherings.reseal(); // waiting calls too
    return page;
  }

  async receive(call: WebhookCall): Promise<WebhookOutcome | ShardAnswer> {
    return await this.receiver.receive(call);
  }

  async result(token: string): Promise<ResultState | null> {
    return await this.late.result(token);
  }

  async attach(workflowId: string, executionId: string): Promise<WebhookOutcome | null> {
    return await this.late.attach(workflowId, executionId);
  }

  async claimDelivery(
    keys: DeliveryKey[],
    executionId: string,
    windowMs: number,
  ): Promise<string | null> {
    return this.deliveries.local.claim(keys, executionId, Date.now(), windowMs);
  }

  async keepHookSecret(workflowId: string, nodeKey: string, secret: string): Promise<boolean> {
    return await this.hookSecrets.local.keep(workflowId, nodeKey, secret);
  }

  async hookSecret(workflowId: string, nodeKey: string): Promise<string | null> {
    return await this.hookSecrets.local.get(workflowId, nodeKey);
  }

  async releaseDelivery(executionId: string): Promise<void> {
    this.deliveries.local.release(executionId);
  }

  async repeatAnswer(
    workflowId: string,
    nodeKey: string,
    executionId: string,
  ): Promise<DirectOutcome> {
    return await this.receiver.repeatAnswer(workflowId, nodeKey, executionId);
  }

  async answerQuestion(answer: Parameters<Questions["answer"]>[0]): Promise<void> {
    await this.questions.answer(answer);
  }

  async closeQuestion(closing: Parameters<Questions["close"]>[0]): Promise<void> {
    await this.questions.close(closing);
  }

  async startFromEvent(call: EventCall): Promise<boolean> {
    return await startFromEvent(this.source, this.executor, call);
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    // A gathering not started yet is shown queued (docs/webhooks.md#flow-control).
    const stored = await this.executor.store.get(executionId);
    return stored ?? (this.deleted ? null : this.gatherings.record(executionId));
  }

  async listExecutions(
    limit: number,
    startingAfter?: string,
    mode?: ExecutionMode,
  ): Promise<ExecutionPage> {
    const query = { limit, startingAfter, mode };
    // Deleted, its storage (the gatherings' tables too) is gone: nothing waits.
    if (this.deleted) return await this.executor.store.list(limit, startingAfter, mode);
    return await listWithGatherings(this.executor.store, this.gatherings, query);
  }

  async listExecutionsBefore(
    limit: number,
    before: { createdAt: number; inclusive: boolean },
    mode?: ExecutionMode,
  ): Promise<ExecutionPage> {
    await this.executor.store.settle();
    return await listExecutionsBefore(this.ctx.storage, limit, before, mode);
  }

  // The replays' own signatures, documented in replays.ts: the object only hands the call on.
  async replay(...args: Parameters<Replays["replay"]>): Promise<ReplayResult> {
    return await this.replays.replay(...args);
  }

  async replayFailed(...args: Parameters<Replays["replayFailed"]>): Promise<number> {
    return await this.replays.replayFailed(...args);
  }

  async listRequests(
    limit: number,
    { maxAgeMs, ...filter }: { outcome?: string; before?: string; maxAgeMs?: number },
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
    if (maxAgeMs) this.requests.setMaxAge(maxAgeMs);
    return await this.requests.list(limit, filter);
  }

  async metricBuckets(from: number, to: number, stepMs: number): Promise<MetricBucket[]> {
    return await this.metrics.buckets(from, to, stepMs);
  }

  async getRequest(id: string, maxAgeMs?: number): Promise<LoggedRequestDetail | null> {
    if (maxAgeMs) this.requests.setMaxAge(maxAgeMs);
    return await this.requests.get(id);
  }

  async armCapture(workflowId: string, nodeKey: string, count: number, ttl: number, run = false) {
    return await this.tests.arm(workflowId, nodeKey, count, ttl, run);
  }

  async samples(workflowId: string, nodeKey: string): Promise<Sample[] | null> {
    return await this.tests.samples(workflowId, nodeKey);
  }

  /** A test-URL call: a sample while armed; with `run`, a test execution too. */
  async capture(call: WebhookCall): Promise<CaptureOutcome> {
    return await this.tests.capture(call);
  }

  async testRun(workflowId: string, nodeKey: string, sampleId?: string): Promise<TestRunResult> {
    return await this.tests.run(workflowId, nodeKey, sampleId);
  }

  /** Continues executions whose wait ended or fetch was interrupted; writes due metrics. */
  override async alarm(): Promise<void> {
    if (this.deleted) return;
    await this.executor.runDue();
    await this.gatherings.runDue();
    await this.replays.watch();
    await this.metrics.alarm();
    await this.housekeeping.run();
  }
}
