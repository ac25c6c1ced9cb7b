import type { WorkflowDefinition } from "../../src/workflows/nodes/types";
import { parseDefinition } from "../../src/workflows/nodes/validate";

/** A validated workflow definition from plain nodes and connections; throws with the problems. */
export function define(nodes: unknown[], connections: unknown[]): WorkflowDefinition {
  const result = parseDefinition({ nodes, connections });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.definition;
}
