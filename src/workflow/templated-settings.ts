/** Which settings of each node type hold templates (docs/api/webhooks.md#definition). */
import type { WorkflowNode } from "./types";

/** The settings of `node` whose strings are templates, with their names. */
export function templatedSettings(node: WorkflowNode): [string, unknown][] {
  switch (node.type) {
    case "condition":
      return [
        ["left", node.left],
        ["right", node.right],
      ];
    case "set":
      return [["fields", node.fields]];
    case "http_request":
      return [
        ["url", node.url],
        ["headers", node.headers],
        ["body", node.body],
      ];
    case "webhook":
      return [
        ...(node.dedupe?.key ? [["dedupe.key", node.dedupe.key] as [string, unknown]] : []),
        ["responseHeaders", node.responseHeaders],
        ["responseBody", node.responseBody],
      ];
    case "respond":
      return [
        ["headers", node.headers],
        ["body", node.body],
      ];
    default:
      return [];
  }
}
