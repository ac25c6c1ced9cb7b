/**
 * A workflow body's definition checked (docs/api/webhooks.md#definition): the pure engine's
 * `parseDefinition`, the agents its conversation_event triggers name, and the notes' keys
 * (docs/api/webhooks.md#notes), every problem at once.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { agents } from "../../db/schema";
import { type ErrorDetail, invalidRequest } from "../../platform/errors";
import type { WorkflowDefinition } from "../nodes/types";
import { parseDefinition } from "../nodes/validate";
import { noteProblems } from "./notes";
import type { WorkflowInput } from "./schemas";

/**
 * Validates the definition, the agents its conversation_event triggers name and the notes' keys.
 * @throws ApiError 400 invalid_request listing every problem
 */
export async function validDefinition(
  db: DrizzleD1Database,
  workspaceId: string,
  input: WorkflowInput,
): Promise<WorkflowDefinition> {
  const parsed = parseDefinition({ nodes: input.nodes, connections: input.connections });
  const problems: ErrorDetail[] = [
    ...(parsed.ok ? [] : parsed.problems),
    ...noteProblems(input.notes),
  ];
  const nodes = parsed.ok ? parsed.definition.nodes : [];
  const agentIds = [
    ...new Set(nodes.flatMap((n) => (n.type === "conversation_event" ? [n.agentId] : []))),
  ];
  if (agentIds.length > 0) {
    const known = new Set(
      (
        await db
          .select({ id: agents.id })
          .from(agents)
          .where(and(eq(agents.workspaceId, workspaceId), inArray(agents.id, agentIds)))
      ).map((row) => row.id),
    );
    for (const [index, node] of nodes.entries()) {
      if (node.type === "conversation_event" && !known.has(node.agentId)) {
        problems.push({
          field: `nodes[${index}].agentId`,
          code: "unknown_agent",
          message: `No agent ${node.agentId} in this workspace.`,
        });
      }
    }
  }
  if (!parsed.ok || problems.length > 0) {
    throw invalidRequest("The workflow definition is invalid.", problems);
  }
  const { concurrency } = input;
  return concurrency ? { ...parsed.definition, concurrency } : parsed.definition;
}
