/**
 * The editor's shapes of a node and its problems (docs/dashboard.md#workflow-editor), apart from
 * model.ts so the panel's fields (fields.ts), which model.ts reads labels from, need not import it.
 */
import type { NodeType } from "../../../../workflows/nodes";

/** A node's JSON as the API takes it: key, type, name, position and its settings. */
export type NodeJson = { key: string; type: NodeType; name?: string } & Record<string, unknown>;

/** A problem the API (or the node's schema) found in one of the node's settings. */
export type FieldProblem = { field: string; message: string };
