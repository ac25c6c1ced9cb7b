/**
 * Workflow events of conversations (docs/events.md#conversation-events-to-workflows): `conversation.started`,
 * `conversation.ended` and `conversation.analyzed` start every running workflow of the workspace that has a
 * `conversation_event` trigger for the conversation's agent listening to that event.
 */

import { and, eq } from "drizzle-orm";
import { database } from "../db/database";
import { type ConversationAnalysis, workflows } from "../db/schema";
import { sha256Hex } from "../platform/crypto";
import type { AppBindings } from "../platform/env";
import { isoTime } from "../platform/ids";
import type { ConversationEventNode, WorkflowNode } from "../workflows/nodes";
import { workflowRunner } from "../workflows/runner/client";
import type { ConversationFacts, EndReason } from "./conversation/contract";

/** One conversation event: an outbox item of the Conversation, or a finished analysis. */
type EventItem = {
  /** Unique per event: execution ids are derived from it. */
  id: string;
  event: "conversation.started" | "conversation.ended" | "conversation.analyzed";
  at: number;
  reason?: EndReason;
  analysis?: ConversationAnalysis;
};

/** What the event's output tells of the conversation. */
type EventFacts = Pick<
  ConversationFacts,
  "workspaceId" | "linkId" | "sessionId" | "flowId" | "channelId" | "participantExternalId"
> & { participant: { name: string | null } };

/** The trigger's output: what later nodes read as `{{<trigger key>.<field>}}`. */
export type ConversationEventOutput = {
  event: EventItem["event"];
  /** ISO 8601 time of the event. */
  at: string;
  launchId: string;
  sessionId: string;
  flowId: string;
  channelId: string;
  participant: { name: string | null; externalId: string | null };
  /** conversation.ended only: the same word its event to endpoints carries (docs/events.md). */
  reason?: EndReason;
  /** conversation.analyzed only: the analysis, as its event to endpoints carries it. */
  analysis?: ConversationAnalysis;
};

/** The event's trigger output. */
export function eventOutput(facts: EventFacts, item: EventItem): ConversationEventOutput {
  return {
    event: item.event,
    at: isoTime(item.at),
    launchId: facts.linkId,
    sessionId: facts.sessionId,
    flowId: facts.flowId,
    channelId: facts.channelId,
    participant: { name: facts.participant.name, externalId: facts.participantExternalId },
    ...(item.reason ? { reason: item.reason } : {}),
    ...(item.analysis ? { analysis: item.analysis } : {}),
  };
}

/**
 * Starts the event's executions. Each execution id is derived from the event's id, the workflow
 * and the trigger, so a retried delivery starts nothing twice (the runner ignores a known id).
 * @throws when D1 or a runner cannot be reached; the caller retries
 */
export async function deliverConversationEvent(
  env: AppBindings,
  facts: EventFacts,
  item: EventItem,
): Promise<void> {
  const rows = await database(env)
    .select({ id: workflows.id, definition: workflows.definition })
    .from(workflows)
    .where(and(eq(workflows.workspaceId, facts.workspaceId), eq(workflows.status, "running")));
  const output = eventOutput(facts, item);
  const starts: Promise<unknown>[] = [];
  for (const row of rows) {
    for (const node of row.definition.nodes) {
      if (!listens(node, facts.flowId, item.event)) continue;
      const digest = await sha256Hex(`${item.id}/${row.id}/${node.key}`);
      starts.push(
        workflowRunner(env, row.id).startFromEvent({
          workflowId: row.id,
          nodeKey: node.key,
          executionId: `exe_${digest.slice(0, 32)}`,
          event: item.event,
          agentId: facts.flowId,
          output,
        }),
      );
    }
  }
  await Promise.all(starts);
}

function listens(
  node: WorkflowNode,
  agentId: string,
  event: EventItem["event"],
): node is ConversationEventNode {
  return (
    node.type === "conversation_event" && node.agentId === agentId && node.events.includes(event)
  );
}
