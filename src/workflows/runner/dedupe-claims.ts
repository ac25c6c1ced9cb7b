/**
 * Delivery keys are judged in shard 0's SQLite, synchronously; other shards ask it in one call
 * (docs/webhooks.md#deduplication, docs/scaling.md#deduplication).
 */
import { sha256Hex } from "../../platform/crypto";
import type { JsonValue } from "../../platform/json";
import { everyTemplateResolves, resolveValue, valueAsText } from "../engine/template";
import type { WebhookNode, WebhookOutput } from "../nodes/types";
import { dedupePlan } from "../nodes/webhook-checks";
import type { WorkflowRunnerContract } from "./contract";
import type { DedupeStore, DeliveryKey } from "./dedupe-store";
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
   * Claims the call's delivery keys for its execution; `whenStarted` waits until `started`, so a
   * repeat asking this shard never finds it missing.
   * @param signature the call's verified signature (`signatureOf`), or null
   * @returns the first execution's id for a repeated delivery, or null (no key, or this call holds it)
   */
  async claim(
    workflowId: string,
    node: WebhookNode,
    executionId: string,
    output: WebhookOutput,
    signature: string | null,
  ): Promise<string | null> {
    const plan = dedupePlan(node);
    if (plan === null) return null;
    const keys = await deliveryKeys(node, plan, output, signature);
    if (keys.length === 0) return null;
    const windowMs = plan.windowSeconds * 1000;
    if (shardOfId(executionId) === 0) {
      return this.local.claim(keys, executionId, Date.now(), windowMs);
    }
    this.claiming.set(executionId, Promise.withResolvers<void>());
    try {
      const first = await this.shardZero(workflowId).claimDelivery(keys, executionId, windowMs);
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

/** A call's delivery keys: each resolved template, and its signature's digest where counted. */
async function deliveryKeys(
  node: WebhookNode,
  plan: NonNullable<ReturnType<typeof dedupePlan>>,
  output: WebhookOutput,
  signature: string | null,
): Promise<DeliveryKey[]> {
  const scope = { outputs: { [node.key]: output as unknown as JsonValue }, secrets: {} };
  const keys: DeliveryKey[] = plan.keys
    .filter((template) => everyTemplateResolves(template, scope))
    .map((template) => [node.key, valueAsText(resolveValue(template, scope))]);
  if (plan.signature && signature) {
    keys.push([`${node.key}${SIGNATURE_SUFFIX}`, await sha256Hex(signature)]);
  }
  return keys;
}

/** Where signatures are kept: a node key never holds `#` (KEY_PATTERN). */
const SIGNATURE_SUFFIX = "#signature";
