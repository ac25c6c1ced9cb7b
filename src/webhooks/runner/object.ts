/**
 * WorkflowRunner: one SQLite-backed Durable Object per workflow (named by workflow id), the only
 * place its executions run (contract 5).
 *
 * Responsibilities:
 * - Receiving webhook calls: the workflow's current definition and status (re-read from D1 when the
 *   management API changes it), the 404/405/429/413/422 decisions in that order, and the built-in
 *   rate limit per webhook node (exact sliding window, persisted like the launch API's).
 * - Running executions with the pure engine of `src/workflow/`. After every run of synchronous
 *   nodes the state is saved (`ExecutionStore`, group commit); before a node that waits on the
 *   outside world (http_request, wait) that save is confirmed and carries a wake time, and an alarm
 *   is set. After any restart the alarm brings the object back and the execution continues from its
 *   last completed node. A duplicate alarm finds nothing due and runs nothing twice.
 * - Holding lastNode callers: in memory only, each with its deadline (responseTimeoutSeconds). If
 *   the object restarts while a caller waits, the Worker re-attaches through `attach`, which answers
 *   from the stored record.
 */
import { DurableObject } from "cloudflare:workers";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { loadSecretValues } from "../../manage/secrets";
import type { AppBindings } from "../../platform/env";
import { RateLimitStore } from "../../platform/rate-limit-store";
import { importSecretsKey } from "../../platform/secret-box";
import {
  advance,
  completeFetch,
  completeWait,
  failFetch,
  finalOutput,
  startExecution,
} from "../../workflow/engine";
import { secretsForRedaction } from "../../workflow/redact";
import type {
  ConversationEvent,
  ConversationEventNode,
  WebhookNode,
  WebhookOutput,
} from "../../workflow/types";
import { type RunnerConfig, readRunnerConfig } from "./config";
import {
  type ExecutionRecord,
  ExecutionStore,
  type LiveExecution,
  type Wake,
} from "./execution-store";
import { HeldCallers } from "./held-callers";
import { performFetch } from "./outbound-fetch";

/** A webhook request, read and parsed by the Worker (contract 5 outputs). */
export type WebhookCall = {
  workflowId: string;
  workspaceSlug: string;
  workflowSlug: string;
  nodeKey: string;
  method: string;
  /** Chosen by the Worker, so it can re-attach to the execution if this object restarts. */
  executionId: string;
  input: { ok: true; output: WebhookOutput } | { ok: false; status: 413 | 422; message: string };
};

/** A conversation event for one of this workflow's conversation_event triggers (spec 6). */
export type EventCall = {
  workflowId: string;
  nodeKey: string;
  /** Derived from the event by the sender, so a repeated delivery starts nothing twice. */
  executionId: string;
  event: ConversationEvent;
  agentId: string;
  output: unknown;
};

/** How a webhook call ends; the Worker turns it into the HTTP response. */
export type WebhookOutcome =
  /** `stale`: this object does not hold the workflow the URL names (deleted, or its slug moved). */
  | { kind: "not_found"; stale: boolean }
  | { kind: "method_not_allowed"; allow: string }
  | { kind: "rate_limited"; retryAfterSeconds: number; limit: number }
  | { kind: "bad_body"; status: 413 | 422; message: string }
  | { kind: "accepted"; executionId: string }
  | { kind: "succeeded"; executionId: string; output: unknown }
  | { kind: "failed"; executionId: string; nodeKey: string | null }
  | { kind: "timeout"; executionId: string };

type Settled = Extract<WebhookOutcome, { kind: "succeeded" | "failed" }>;
/** Secret values by name, and the same values prepared once for `redactedJson`. */
type Secrets = { values: Record<string, string>; redact: string[] };

/** Secrets are re-read at least this often even if no change was announced (ms). */
const SECRETS_MAX_AGE_MS = 60_000;
/** How long past its timeout a fetch may be silent before the alarm takes it over (ms). */
const FETCH_LEASE_MS = 30_000;

export class WorkflowRunner extends DurableObject<AppBindings> {
  private readonly db: DrizzleD1Database;
  private readonly store: ExecutionStore;
  private readonly rateLimits: RateLimitStore;
  private config: Promise<RunnerConfig | null> | undefined;
  private secrets: Promise<Secrets> | undefined;
  private secretsLoadedAt = 0;
  /** Executions this instance is driving right now; the alarm leaves them alone. */
  private readonly inFlight = new Set<string>();
  private readonly held = new HeldCallers<Settled>();
  private alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: AppBindings) {
    super(ctx, env);
    this.db = drizzle(env.DB);
    this.store = new ExecutionStore(ctx.storage);
    this.rateLimits = new RateLimitStore(ctx.storage, (promise) => ctx.waitUntil(promise));
    void ctx.blockConcurrencyWhile(async () => {
      this.alarmAt = await ctx.storage.getAlarm();
      await this.store.load();
      if (this.store.interruptFetches(Date.now()) > 0) await this.schedule(Date.now());
    });
  }

  /** Re-reads the workflow from D1 after the management API changed it (or forgets a deleted one). */
  async configure(workflowId: string): Promise<void> {
    const config = readRunnerConfig(this.db, workflowId);
    this.config = config;
    if ((await config) === null) {
      // Deleted: its executions, rate-limit log and alarm go with it. Records waiting to be
      // written are forgotten first, so none is written after the deletion.
      this.store.forget();
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    }
  }

  /** The workspace's secrets changed; the next execution reads them again. */
  secretsChanged(): void {
    this.secrets = undefined;
  }

  /** Receives one webhook call: refuses it, or starts an execution (contract 5 responses). */
  async receive(call: WebhookCall): Promise<WebhookOutcome> {
    const config = await this.loadConfig(call.workflowId);
    if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
    const node = findWebhook(config, call);
    if (!node) return { kind: "not_found", stale: false };
    if (call.method !== node.httpMethod)
      return { kind: "method_not_allowed", allow: node.httpMethod };
    const rate = await this.rateLimits.attempt(
      `webhook/${node.key}`,
      node.rateLimitPerMinute,
      60_000,
    );
    if (!rate.allowed) {
      return { kind: "rate_limited", retryAfterSeconds: rate.retryAfterSeconds, limit: rate.limit };
    }
    if (!call.input.ok)
      return { kind: "bad_body", status: call.input.status, message: call.input.message };
    const secrets = await this.loadSecrets(config.workspaceId);
    const settled =
      node.responseMode === "lastNode"
        ? this.held.wait(call.executionId, node.responseTimeoutSeconds * 1000)
        : undefined;
    await this.start(config, node, call.executionId, call.input.output, secrets);
    return settled ? await settled : { kind: "accepted", executionId: call.executionId };
  }

  /**
   * Starts an execution from a conversation event, unless the workflow is not running, the trigger
   * no longer listens to this agent and event, or the execution already exists.
   * @returns whether an execution started
   */
  async startFromEvent(call: EventCall): Promise<boolean> {
    const config = await this.loadConfig(call.workflowId);
    if (config?.status !== "running" || config.workflowId !== call.workflowId) return false;
    const node = config.definition.nodes.find((n) => n.key === call.nodeKey);
    if (
      node?.type !== "conversation_event" ||
      node.agentId !== call.agentId ||
      !node.events.includes(call.event)
    ) {
      return false;
    }
    const secrets = await this.loadSecrets(config.workspaceId);
    const known = await this.store.get(call.executionId);
    // No await from this check to `start`, which marks the execution in flight at once, so two
    // concurrent deliveries of one event cannot both pass.
    if (known || this.inFlight.has(call.executionId)) return false;
    await this.start(config, node, call.executionId, call.output, secrets);
    return true;
  }

  /**
   * Re-attaches a lastNode caller whose first call broke (the object restarted): waits until the
   * execution finishes or the node's timeout, measured from the execution's start, passes.
   * @returns null when no such execution was ever recorded
   */
  async attach(workflowId: string, executionId: string): Promise<WebhookOutcome | null> {
    const record = await this.store.get(executionId);
    if (!record) return null;
    const config = await this.loadConfig(workflowId);
    const node = config?.definition.nodes.find((n) => n.key === record.trigger.key);
    if (node?.type !== "webhook" || node.responseMode === "immediate") {
      return { kind: "accepted", executionId };
    }
    if (record.status !== "running") return settledFromRecord(record);
    const left = record.startedAt + node.responseTimeoutSeconds * 1000 - Date.now();
    return left > 0 ? this.held.wait(executionId, left) : { kind: "timeout", executionId };
  }

  /** One execution's record (secrets redacted), or null. */
  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return await this.store.get(executionId);
  }

  /** Executions newest first. */
  async listExecutions(
    limit: number,
    startingAfter?: string,
  ): Promise<{ data: ExecutionRecord[]; hasMore: boolean }> {
    return await this.store.list(limit, startingAfter);
  }

  /** Continues every execution whose wait ended or whose fetch was interrupted. */
  override async alarm(): Promise<void> {
    this.alarmAt = null;
    const now = Date.now();
    const due = (await this.store.due(now)).filter((execution) => !this.inFlight.has(execution.id));
    if (due.length > 0) {
      const config = await this.loadConfig(due[0]?.workflowId ?? "");
      const secrets = config ? await this.loadSecrets(config.workspaceId) : emptySecrets();
      for (const execution of due) {
        // A wait that has not ended yet (a clock skew or an early alarm) stays parked.
        if (
          execution.state.waitUntil !== null &&
          !completeWait(execution.definition, execution.state, now)
        ) {
          continue;
        }
        this.ctx.waitUntil(this.drive(execution, secrets).catch(logDriveError));
      }
    }
    const next = this.store.nextWake();
    if (next !== null) await this.schedule(Math.max(next, Date.now() + 1));
  }

  /**
   * Starts an execution of the workflow's current definition from `trigger` with its output, and
   * drives it. Settles once it is recorded: when it goes on past its first stretch of nodes, once
   * that state is confirmed on disk; when it finished in that stretch, at once (its record is
   * written unconfirmed, see ExecutionStore).
   */
  private start(
    config: RunnerConfig,
    trigger: WebhookNode | ConversationEventNode,
    executionId: string,
    output: unknown,
    secrets: Secrets,
  ): Promise<void> {
    const now = Date.now();
    const execution: LiveExecution = {
      id: executionId,
      workflowId: config.workflowId,
      triggerType: trigger.type,
      definition: config.definition,
      state: startExecution(config.definition, trigger.key, output, now),
      startedAt: now,
    };
    let onRecorded: (error?: unknown) => void = () => {};
    const recorded = new Promise<void>((resolve, reject) => {
      onRecorded = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.ctx.waitUntil(this.drive(execution, secrets, onRecorded).catch(logDriveError));
    return recorded;
  }

  /**
   * Runs the execution until it finishes or parks on a wait, awaiting fetches in between. The state
   * is saved (group commit) after every synchronous stretch, before any effect: a fetch starts only
   * once the state that leads to it is durable.
   * @param onRecorded called once, after the first save, or with the error that prevented it
   */
  private async drive(
    execution: LiveExecution,
    secrets: Secrets,
    onRecorded?: (error?: unknown) => void,
  ): Promise<void> {
    this.inFlight.add(execution.id);
    let recorded = onRecorded;
    try {
      for (;;) {
        const step = advance(execution.definition, execution.state, secrets.values, Date.now());
        if (step.kind === "finished") {
          // A finished record is written unconfirmed: nothing is gained by holding the reply.
          const saved = this.store.save(execution, secrets.redact, null);
          recorded?.();
          this.settle(execution);
          await saved;
          return;
        }
        const wake: Wake =
          step.kind === "wait"
            ? { step: "wait", at: step.until }
            : { step: "fetch", at: Date.now() + step.request.timeoutMs + FETCH_LEASE_MS };
        await this.store.save(execution, secrets.redact, wake);
        recorded?.();
        recorded = undefined;
        await this.schedule(wake.at);
        if (step.kind === "wait") return;
        try {
          const response = await performFetch(step.request);
          completeFetch(execution.definition, execution.state, response, Date.now());
        } catch (error) {
          failFetch(
            execution.state,
            error instanceof Error ? error.message : String(error),
            Date.now(),
          );
        }
      }
    } catch (error) {
      recorded?.(error);
      throw error;
    } finally {
      this.inFlight.delete(execution.id);
    }
  }

  private settle(execution: LiveExecution): void {
    if (!this.held.has(execution.id)) return;
    const { state } = execution;
    this.held.settle(
      execution.id,
      state.status === "succeeded"
        ? { kind: "succeeded", executionId: execution.id, output: finalOutput(state) }
        : { kind: "failed", executionId: execution.id, nodeKey: state.failedNodeKey },
    );
  }

  private async schedule(at: number): Promise<void> {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    await this.ctx.storage.setAlarm(at);
  }

  private loadConfig(workflowId: string): Promise<RunnerConfig | null> {
    if (!this.config) {
      const loading = readRunnerConfig(this.db, workflowId);
      this.config = loading;
      // A failed read is not remembered; the next call tries again.
      loading.catch(() => {
        if (this.config === loading) this.config = undefined;
      });
    }
    return this.config;
  }

  private loadSecrets(workspaceId: string): Promise<Secrets> {
    if (this.secrets && Date.now() - this.secretsLoadedAt <= SECRETS_MAX_AGE_MS)
      return this.secrets;
    this.secretsLoadedAt = Date.now();
    const loading = (async (): Promise<Secrets> => {
      const values = await loadSecretValues(
        this.db,
        await importSecretsKey(this.env.SECRETS_KEY),
        workspaceId,
      );
      return { values, redact: secretsForRedaction(Object.values(values)) };
    })();
    this.secrets = loading;
    loading.catch(() => {
      if (this.secrets === loading) this.secrets = undefined;
    });
    return loading;
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

function settledFromRecord(record: ExecutionRecord): Settled {
  if (record.status === "failed") {
    const failed = record.nodes.find((run) => run.status === "failed");
    return { kind: "failed", executionId: record.id, nodeKey: failed?.key ?? null };
  }
  const last = record.nodes.filter((run) => run.status === "succeeded").at(-1);
  return { kind: "succeeded", executionId: record.id, output: last?.output ?? null };
}

/** A runner bug, not a node failure (those are recorded); logged once, without node data. */
function logDriveError(error: unknown): void {
  console.error(
    JSON.stringify({ level: "error", event: "execution_drive_failed", error: String(error) }),
  );
}

function emptySecrets(): Secrets {
  return { values: {}, redact: [] };
}
