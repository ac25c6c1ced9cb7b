/**
 * Where a webhook delivery's deduplication key is judged (docs/webhooks.md#deduplication,
 * docs/scaling.md#deduplication): always in shard 0's SQLite, the object that held every key
 * before workflows had shards. Shard 0 claims synchronously; another shard asks shard 0 in one
 * call, so two deliveries with one key start one execution whichever shards they reach.
 */
import type { JsonValue } from "../../platform/json";
import { everyTemplateResolves, resolveValue, valueAsText } from "../../workflow/template";
import type { WebhookNode, WebhookOutput } from "../../workflow/types";
import { dedupeKeyTemplate } from "../../workflow/validate-verify";
import type { WorkflowRunnerContract } from "./contract";
import type { DedupeStore } from "./dedupe-store";
import { shardOfId } from "./shards";

/** Shard 0 of a workflow's runners. */
export type ShardZero = (workflowId: string) => DurableObjectStub<WorkflowRunnerContract>;

/** A runner's side of deduplication: its own keys (shard 0), or shard 0's through one call. */
export class Deliveries {
  /** Executions whose key is being claimed at shard 0, until they are started (or are not). */
  private readonly claiming = new Map<string, PromiseWithResolvers<void>>();

  constructor(
    readonly local: DedupeStore,
    private readonly shardZero: ShardZero,
  ) {}

  /**
   * Claims the call's delivery key for its execution (the execution id names the shard it runs
   * on). Until `started` is called for it, `whenStarted` waits, so a repeat asking this shard about
   * it never finds it missing.
   * @returns the first execution's id for a repeated delivery, or null (no key, or this call holds it)
   */
  async claim(
    workflowId: string,
    node: WebhookNode,
    executionId: string,
    output: WebhookOutput,
  ): Promise<string | null> {
    const key = deliveryKey(node, output);
    if (key === null || !node.dedupe) return null;
    const windowMs = node.dedupe.windowSeconds * 1000;
    if (shardOfId(executionId) === 0) {
      return this.local.claim(node.key, key, executionId, Date.now(), windowMs);
    }
    this.claiming.set(executionId, Promise.withResolvers<void>());
    try {
      const first = await this.shardZero(workflowId).claimDelivery(
        node.key,
        key,
        executionId,
        windowMs,
      );
      if (first !== null) this.started(executionId);
      return first;
    } catch (error) {
      this.started(executionId);
      throw error;
    }
  }

  /** The execution whose key this shard claimed is recorded now, or will not be. */
  started(executionId: string): void {
    this.claiming.get(executionId)?.resolve();
    this.claiming.delete(executionId);
  }

  /** Settles once the execution is no longer between its claim and its start. */
  async whenStarted(executionId: string): Promise<void> {
    await this.claiming.get(executionId)?.promise;
  }

  /** Forgets the key an execution claimed, when it could not be started after all. */
  async release(workflowId: string, executionId: string): Promise<void> {
    if (shardOfId(executionId) === 0) this.local.release(executionId);
    else await this.shardZero(workflowId).releaseDelivery(executionId);
  }
}

/** The delivery key of a call to a deduplicating node, or null when it names none. */
function deliveryKey(node: WebhookNode, output: WebhookOutput): string | null {
  const template = dedupeKeyTemplate(node);
  if (!template || !node.dedupe) return null;
  const scope = { outputs: { [node.key]: output as unknown as JsonValue }, secrets: {} };
  if (!everyTemplateResolves(template, scope)) return null;
  return valueAsText(resolveValue(template, scope));
}
