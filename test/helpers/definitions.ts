import type { WorkflowDefinition } from "../../src/workflow/types";
import { parseDefinition } from "../../src/workflow/validate";

/** A validated workflow definition from plain nodes and connections; throws with the problems. */
export function define(nodes: unknown[], connections: unknown[]): WorkflowDefinition {
  const result = parseDefinition({ nodes, connections });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.definition;
}
