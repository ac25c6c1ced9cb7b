/** Which settings of each node type hold templates (docs/api/webhooks.md#definition). */
import type { NodeType, WorkflowNode } from "./types";

/**
 * The settings of each node type whose strings are templates, as dotted paths (`dedupe.key`);
 * the validator checks their references and the dashboard offers fields to insert into them.
 */
export const TEMPLATED_SETTINGS: Record<NodeType, readonly string[]> = {
  webhook: ["dedupe.key", "responseHeaders", "responseBody"],
  conversation_event: [],
  condition: ["left", "right"],
  set: ["fields"],
  http_request: ["url", "headers", "body"],
  wait: [],
  respond: ["headers", "body"],
};

/** The templated settings `node` has (TEMPLATED_SETTINGS), with their values. */
export function templatedSettings(node: WorkflowNode): [string, unknown][] {
  return TEMPLATED_SETTINGS[node.type].flatMap((path) => {
    let value: unknown = node;
    for (const segment of path.split(".")) {
      value = (value as Record<string, unknown> | undefined)?.[segment];
    }
    return value === undefined ? [] : [[path, value] as [string, unknown]];
  });
}
