/**
 * A webhook node's test URL and test runs (docs/webhooks.md#capture, docs/webhooks.md#test-runs):
 * calls stored as samples while armed, and executions of the saved definition marked `test`, which
 * start whether the workflow runs or is stopped, on shard 0 where the samples are.
 */
import { newExecutionId } from "../../platform/ids";
import type { JsonValue } from "../../platform/json";
import { redactPrepared } from "../engine/redact";
import type { WebhookNode, WebhookOutput } from "../nodes/types";
import type { CaptureStore, Sample } from "./capture-store";
import type { RunnerConfig } from "./config";
import type { CaptureOutcome, TestRunResult, WebhookCall } from "./contract";
import { redactHeaders } from "./credential-headers";
import type { Executor } from "./executor";
import { batchItem } from "./gatherings";
import { webhookNode } from "./late-answers";
import { namesThisWorkflow } from "./receiver";
import { idOnShard } from "./shards";
import { QUEUE_FULL_RETRY_SECONDS } from "./slots";
import type { WorkflowSource } from "./workflow-source";

/** The runner's test URL and test runs. */
export class TestRuns {
  constructor(
    private readonly source: WorkflowSource,
    private readonly executor: Executor,
    private readonly captures: CaptureStore,
  ) {}

  /** Arms capture on a webhook node's test URL for `ttlSeconds`; null without such a node. */
  async arm(workflowId: string, nodeKey: string, count: number, ttlSeconds: number, run: boolean) {
    const config = await this.source.workflow(workflowId);
    if (!config || !webhookNode(config, nodeKey)) return null;
    return this.captures.arm(nodeKey, count, ttlSeconds * 1000, Date.now(), run);
  }

  /** A webhook node's captured samples, newest first; null without such a node. */
  async samples(workflowId: string, nodeKey: string): Promise<Sample[] | null> {
    const config = await this.source.workflow(workflowId);
    if (!config || !webhookNode(config, nodeKey)) return null;
    return this.captures.samples(nodeKey, Date.now());
  }

  /**
   * A test-URL call: stored as a sample while armed, running or stopped; when armed with `run`, it
   * also starts a test execution with the call as it came (secrets unredacted, as in production).
   */
  async capture(call: WebhookCall): Promise<CaptureOutcome> {
    const config = await this.source.workflow(call.workflowId);
    if (!config || !namesThisWorkflow(config, call)) return { kind: "not_found", stale: true };
    const node = webhookNode(config, call.nodeKey);
    const now = Date.now();
    if (!node || !this.captures.arming(node.key, now)) return { kind: "not_found", stale: false };
    if (call.method !== node.httpMethod)
      return { kind: "method_not_allowed", allow: node.httpMethod };
    if (!call.input.ok) {
      return { kind: "bad_body", status: call.input.status, message: call.input.message };
    }
    const secrets = await this.source.secretValues(config.workspaceId);
    const { output } = call.input;
    const shown = { ...output, headers: redactHeaders(output.headers, node.verify?.header) };
    // Checked again: the arming may have been used up while the secrets were read.
    const arming = this.captures.capture(node.key, redactPrepared(shown, secrets.redact), now);
    if (!arming) return { kind: "not_found", stale: false };
    if (!arming.run) return { kind: "captured" };
    const executionId = await this.start(config, node, output);
    return executionId
      ? { kind: "captured", executionId }
      : { kind: "queue_full", retryAfterSeconds: QUEUE_FULL_RETRY_SECONDS };
  }

  /** Starts a test execution from one of the node's samples (`sampleId`, default the newest). */
  async run(workflowId: string, nodeKey: string, sampleId?: string): Promise<TestRunResult> {
    const config = await this.source.workflow(workflowId);
    const node = config ? webhookNode(config, nodeKey) : undefined;
    if (!config || !node) return { ok: false, reason: "node_not_found" };
    const sample = this.captures.sample(node.key, Date.now(), sampleId);
    if (!sample) return { ok: false, reason: "sample_not_found" };
    const executionId = await this.start(config, node, sample.output);
    if (!executionId) return { ok: false, reason: "queue_full" };
    return { ok: true, executionId, sampleId: sample.id };
  }

  /** A test execution's id once recorded, or null when the workflow's queue is full. */
  private async start(
    config: RunnerConfig,
    node: WebhookNode,
    output: JsonValue,
  ): Promise<string | null> {
    const secrets = await this.source.secretValues(config.workspaceId);
    // Samples live on shard 0, and so do the executions they start.
    const now = Date.now();
    const id = idOnShard(newExecutionId(now), 0);
    // A batch node's test runs with a batch of one, the shape its later nodes read (docs/webhooks.md#batch).
    const trigger = node.batch
      ? { items: [batchItem(output as WebhookOutput, Date.now())] }
      : output;
    // Created at the time its id carries: its record is keyed by the id.
    const options = { mode: "test" as const, createdAt: now };
    const started = await this.executor.start(config, node, id, trigger, secrets, options);
    return started === "queue_full" ? null : id;
  }
}
