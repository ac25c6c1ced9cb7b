/**
 * A conversation event starting a workflow on its runner (docs/events.md#conversation-events-to-workflows):
 * once per event, under the workflow's concurrency.
 */
import { log } from "../../platform/log";
import type { EventCall } from "./contract";
import type { Executor } from "./executor";
import type { WorkflowSource } from "./workflow-source";

/**
 * Starts the execution `call` names when its node still listens to that agent's event.
 * @returns false when the workflow is stopped, the node no longer matches, the execution is
 * known already (a repeated delivery), or the queue is full; true when started or queued
 */
export async function startFromEvent(
  source: WorkflowSource,
  executor: Executor,
  call: EventCall,
): Promise<boolean> {
  const config = await source.workflow(call.workflowId);
  if (config?.status !== "running" || config.workflowId !== call.workflowId) return false;
  const node = config.definition.nodes.find((n) => n.key === call.nodeKey);
  if (
    node?.type !== "conversation_event" ||
    node.agentId !== call.agentId ||
    !node.events.includes(call.event)
  ) {
    return false;
  }
  const secrets = await source.secretValues(config.workspaceId);
  const known = await executor.store.get(call.executionId);
  // No await from this check to `start` (which marks it in flight): two deliveries cannot both pass.
  if (known || executor.isRunning(call.executionId)) return false;
  const started = await executor.start(config, node, call.executionId, call.output, secrets);
  if (started !== "queue_full") return true;
  log("warn", "event_refused_queue_full", { workflowId: call.workflowId, event: call.event });
  return false;
}
