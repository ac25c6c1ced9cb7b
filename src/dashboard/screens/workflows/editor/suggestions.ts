/**
 * The fields a template can read at a node (docs/dashboard.md#workflow-editor,
 * docs/api/webhooks.md#definition): every earlier node's output, as its model shapes it or as a
 * captured sample of a webhook shows it, and the workspace's secrets.
 */
import type { Edge } from "@xyflow/react";
import { NODE_MODELS } from "../../../../workflows/nodes";
import type { CanvasNode } from "./model";

/** One field to offer: the template to insert and where it comes from. */
export type Suggestion = { template: string; from: string };

// Keys a template path cannot address (it splits on "." and trims around braces).
const ADDRESSABLE = /^[^.{}\s](?:[^.{}]*[^.{}\s])?$/;
const MAX_DEPTH = 4;
const MAX_PER_NODE = 60;

/** The dotted paths inside `value`, parents before children, arrays by index, at most MAX_DEPTH deep. */
export function pathsOf(value: unknown, prefix = "", depth = 0, into: string[] = []): string[] {
  if (depth >= MAX_DEPTH || into.length >= MAX_PER_NODE || value === null) return into;
  if (typeof value !== "object") return into;
  const entries = Array.isArray(value)
    ? value.slice(0, 3).map((item, i) => [String(i), item] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (!ADDRESSABLE.test(key) || into.length >= MAX_PER_NODE) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    into.push(path);
    pathsOf(child, path, depth + 1, into);
  }
  return into;
}

/** The ids of the nodes with a path of connections to `id`, nearest first. */
export function earlierNodes(id: string, edges: Edge[]): string[] {
  const found: string[] = [];
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const edge of edges) {
      if (edge.target !== current || found.includes(edge.source) || edge.source === id) continue;
      found.push(edge.source);
      queue.push(edge.source);
    }
  }
  return found;
}

/**
 * The templates a setting of node `id` can use: its earlier nodes' fields (a webhook's from its
 * newest captured sample when there is one), the node's own call for a webhook's reply and
 * dedupe key, and `{{secrets.NAME}}` where secrets may be read (not in replies).
 */
export function suggestionsFor(options: {
  id: string;
  nodes: CanvasNode[];
  edges: Edge[];
  samples: Record<string, unknown>;
  secrets: string[];
}): Suggestion[] {
  const byId = new Map(options.nodes.map((node) => [node.id, node.data.node]));
  const self = byId.get(options.id);
  if (!self) return [];
  // A webhook's templates read only its own call (docs/webhooks.md#replies).
  const sources = self.type === "webhook" ? [options.id] : earlierNodes(options.id, options.edges);
  const suggestions: Suggestion[] = [];
  for (const sourceId of sources) {
    const node = byId.get(sourceId);
    if (!node) continue;
    const output = options.samples[node.key] ?? NODE_MODELS[node.type].output(node);
    const from = node.name ?? node.key;
    for (const path of pathsOf(output)) {
      suggestions.push({ template: `{{${node.key}.${path}}}`, from });
    }
  }
  const replies = self.type === "webhook" || self.type === "respond";
  if (replies) suggestions.push({ template: "{{$execution.id}}", from: "This execution" });
  else {
    for (const name of options.secrets) {
      suggestions.push({ template: `{{secrets.${name}}}`, from: "Secrets" });
    }
  }
  return suggestions;
}
