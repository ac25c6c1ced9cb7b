/**
 * Answers about an execution after its call: result handles (docs/webhooks.md#result-handles),
 * re-attached callers, repeats (docs/webhooks.md#deduplication); from its shard
 * (docs/scaling.md#runner-shards).
 */
import type { WebhookNode } from "../nodes/types";
import { respondedOutcome } from "./answers";
import type { RunnerConfig } from "./config";
import type {
  DirectOutcome,
  ExecutionRecord,
  ResultState,
  Settled,
  WebhookOutcome,
} from "./contract";
import type { Executor } from "./executor";
import type { ResultTokens } from "./result-tokens";
import type { WorkflowSource } from "./workflow-source";

/** What the late answers read: the workflow, the running executions and their records, handles. */
export type LateAnswerParts = {
  source: WorkflowSource;
  executor: Executor;
  results: ResultTokens;
};

/** The answers given about executions this shard runs, once their call was received. */
export class LateAnswers {
  constructor(private readonly parts: LateAnswerParts) {}

  /** A timed-out lastNode outcome gets a result handle (docs/webhooks.md#result-handles). */
  async withHandle<T extends DirectOutcome>(workflowId: string, outcome: T): Promise<T> {
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

  /** What a repeated delivery's first call got, once settled; a timeout with its result handle. */
  async firstAnswer(
    workflowId: string,
    node: WebhookNode,
    executionId: string,
  ): Promise<DirectOutcome> {
    const { executor } = this.parts;
    const justSettled = executor.settledOutcome(executionId);
    if (justSettled) return justSettled;
    const attached = await this.attach(workflowId, executionId);
    if (attached && attached.kind !== "deduplicated") return attached;
    // Not recorded yet: the first call is still on its first stretch of nodes.
    if (executor.isRunning(executionId)) {
      const held = await executor.waitFor(executionId, node.responseTimeoutSeconds * 1000);
      return await this.withHandle(workflowId, held);
    }
    return { kind: "accepted", executionId };
  }
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
