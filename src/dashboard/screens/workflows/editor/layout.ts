/**
 * Where nodes go on the canvas (docs/dashboard.md#workflow-editor): a layered layout by
 * @dagrejs/dagre (left to right, triggers first) for "Tidy up" and for nodes saved without a
 * position, and free places for new nodes (right of the selected node, or in view), so that nodes
 * never land on top of each other.
 */
import { layout as dagreLayout, Graph } from "@dagrejs/dagre";

export type Point = { x: number; y: number };

/** A node's box on the canvas, a little larger than a node is drawn so that boxes keep a gap. */
export const NODE_SIZE = { width: 200, height: 90 };
/** From a node to the one added after it. */
export const STEP = { x: 260, y: 120 };

type Keyed = { key: string; position?: unknown };
type Link = { from: string; to: string };

/** A saved position, when `value` is one. */
export function readPosition(value: unknown): Point | undefined {
  const point = value as Partial<Point> | undefined;
  return typeof point?.x === "number" && typeof point.y === "number"
    ? { x: point.x, y: point.y }
    : undefined;
}

/**
 * Places nodes without a saved position (every node when `all`) with dagre, left to right along
 * the connections; nodes with a position keep it, and a node placed around them is moved down
 * to the first free place. Returns each node's top-left corner by key.
 */
export function layout(nodes: Keyed[], connections: Link[], all = false): Map<string, Point> {
  const graph = new Graph();
  graph.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 60, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.key, { ...NODE_SIZE });
  for (const { from, to } of connections) {
    if (graph.hasNode(from) && graph.hasNode(to)) graph.setEdge(from, to);
  }
  dagreLayout(graph);
  const places = new Map<string, Point>();
  const saved = all ? [] : nodes.filter((node) => readPosition(node.position));
  for (const node of saved) places.set(node.key, readPosition(node.position) as Point);
  for (const node of nodes) {
    if (places.has(node.key)) continue;
    // dagre gives centres; the canvas takes top-left corners.
    const { x, y } = graph.node(node.key);
    const corner = {
      x: Math.round(x - NODE_SIZE.width / 2),
      y: Math.round(y - NODE_SIZE.height / 2),
    };
    places.set(node.key, all ? corner : freeSpot(corner, [...places.values()]));
  }
  return places;
}

/** Whether boxes at `a` and `b` (NODE_SIZE) overlap. */
export function overlaps(a: Point, b: Point): boolean {
  return Math.abs(a.x - b.x) < NODE_SIZE.width && Math.abs(a.y - b.y) < NODE_SIZE.height;
}

/** The first place at or below `wanted` (a row at a time) that overlaps none of `taken`. */
export function freeSpot(wanted: Point, taken: Point[]): Point {
  const place = { ...wanted };
  // Bounded: a box is at most two rows high, so 2n + 1 rows down one row is free.
  for (let row = 0; row <= 2 * taken.length; row++) {
    if (!taken.some((other) => overlaps(place, other))) return place;
    place.y += STEP.y;
  }
  return place;
}
