/**
 * The side panel's fields, read from the node schemas the API publishes
 * (src/workflows/nodes/node-schemas.ts; docs/dashboard.md#workflow-editor): each setting's kind, range,
 * options and description, and the schema's own verdict on a node, so the panel and the API
 * judge a node by the same rules.
 */
import { getOpenApiMetadata } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import type { NodeType } from "../../../../workflows/nodes";
import { nodeSchemas, TEMPLATED_SETTINGS } from "../../../../workflows/nodes";
import type { FieldProblem, NodeJson } from "./model";

type Common = {
  /** Dotted path from the node: `url`, `dedupe.key`. */
  path: string;
  label: string;
  description: string;
  required: boolean;
  /** Strings in it are templates: the panel offers fields to insert. */
  templated: boolean;
};

/** A setting as the panel shows it. */
export type Field = Common &
  (
    | { kind: "choice"; options: string[] }
    | { kind: "choices"; options: string[] }
    | { kind: "number"; min?: number; max?: number; integer: boolean }
    | { kind: "text" }
    | { kind: "boolean" }
    // `offable`: the setting may also be `false`, which turns it off (a webhook's `dedupe`).
    | { kind: "group"; fields: Field[]; offable?: boolean }
    // Any JSON: typed as text, read as JSON when it is JSON, else as a string.
    | { kind: "value" }
    // An object or a union of objects: edited as JSON.
    | { kind: "json" }
  );

// Set by the canvas (key, type, position) or the panel's own inputs (name, key).
const PANEL_OWN = new Set(["key", "type", "name", "position"]);

type Schema = z.ZodType & {
  unwrap?: () => Schema;
  options?: string[];
  element?: Schema;
  shape?: Record<string, Schema>;
  def: { type: string; options?: Schema[]; values?: unknown[] };
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
};

const describe = (outer: Schema, inner: Schema): string =>
  getOpenApiMetadata(outer).description ?? getOpenApiMetadata(inner).description ?? "";

const ACRONYMS: Record<string, string> = { http: "HTTP", url: "URL", id: "ID" };

/** "responseTimeoutSeconds" → "Response timeout seconds", "httpMethod" → "HTTP method". */
function label(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ")
    .map((word) => ACRONYMS[word] ?? word)
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function field(path: string, outer: Schema, type: NodeType): Field {
  const optional = outer.def.type === "optional";
  const inner = optional && outer.unwrap ? outer.unwrap() : outer;
  const name = path.split(".").pop() ?? path;
  const common: Common = {
    path,
    label: label(name),
    description: describe(outer, inner),
    required: !optional,
    templated: TEMPLATED_SETTINGS[type].includes(path),
  };
  switch (inner.def.type) {
    case "enum":
      return { ...common, kind: "choice", options: inner.options ?? [] };
    case "number":
      return {
        ...common,
        kind: "number",
        min: inner.minValue ?? undefined,
        max: inner.maxValue ?? undefined,
        integer: inner.isInt ?? false,
      };
    case "string":
      return { ...common, kind: "text" };
    case "boolean":
      return { ...common, kind: "boolean" };
    case "array":
      if (inner.element?.def.type === "enum") {
        return { ...common, kind: "choices", options: inner.element.options ?? [] };
      }
      return { ...common, kind: "json" };
    case "object":
      return {
        ...common,
        kind: "group",
        fields: Object.entries(inner.shape ?? {}).map(([key, child]) =>
          field(`${path}.${key}`, child, type),
        ),
      };
    case "unknown":
      return { ...common, kind: "value" };
    case "union": {
      // An object or `false`: the object's group, which can be turned off.
      const [off, object] = inner.def.options ?? [];
      if (off?.def.type === "literal" && off.def.values?.[0] === false && object) {
        const group = field(path, object, type);
        if (group.kind === "group") return { ...group, ...common, offable: true };
      }
      return { ...common, kind: "json" };
    }
    default:
      return { ...common, kind: "json" };
  }
}

const cache = new Map<NodeType, Field[]>();

/** The settings of a `type` node as panel fields, in the schema's order (cached). */
export function fieldsOf(type: NodeType): Field[] {
  let fields = cache.get(type);
  if (!fields) {
    const shape = (nodeSchemas().NODE_SCHEMAS[type] as unknown as Schema).shape ?? {};
    fields = Object.entries(shape)
      .filter(([name]) => !PANEL_OWN.has(name))
      .map(([name, schema]) => field(name, schema, type));
    cache.set(type, fields);
  }
  return fields;
}

/**
 * What the node's schema says of `node`: a problem per refused setting, `field` its dotted path
 * (`dedupe.key`, `events.0`), "" for the node as a whole.
 */
export function checkNode(node: NodeJson): FieldProblem[] {
  const result = nodeSchemas().NODE_SCHEMAS[node.type].safeParse(node);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

/**
 * A node's problems to show: the API's from the last save, and the schema's now for the settings
 * the API said nothing of (the same fault is told once, in the API's words).
 */
export function mergeProblems(saved: FieldProblem[], local: FieldProblem[]): FieldProblem[] {
  const told = new Set(saved.map(({ field }) => topSetting(field)));
  return [...saved, ...local.filter(({ field }) => !told.has(topSetting(field)))];
}

/** The API's problems with node `before` that still stand in `after`: those of unchanged settings. */
export function stillStanding(
  problems: FieldProblem[],
  before: NodeJson,
  after: NodeJson,
): FieldProblem[] {
  return problems.filter(({ field }) => {
    const setting = topSetting(field);
    return setting === "" || JSON.stringify(before[setting]) === JSON.stringify(after[setting]);
  });
}

/** `dedupe.key` → `dedupe`, `events[0]` → `events`. */
export const topSetting = (field: string) => field.split(/[.[]/, 1)[0] ?? "";

/** The problems of `problems` that belong to `path` or a setting inside it. */
export function problemsAt(problems: FieldProblem[], path: string): FieldProblem[] {
  return problems.filter(
    ({ field }) => field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`),
  );
}
