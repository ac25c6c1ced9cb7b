/**
 * The side panel's fields, read from the node models the API validates with and publishes
 * (src/workflows/nodes/models.ts; docs/dashboard.md#workflow-editor): each setting's kind, range,
 * options and description, and the model's own verdict on a node, so the panel and the API
 * judge a node by the same rules and name its problems alike.
 */
import { getOpenApiMetadata } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { once } from "../../../../platform/once";
import {
  CONCURRENCY_TEMPLATED,
  concurrencySchemas,
  judge,
  layersOf,
  NODE_MODELS,
  type NodeType,
} from "../../../../workflows/nodes";
import { labelOf } from "../../../ui/problem-paths";
import { detailText, type FieldKind, type FieldLabels, issueText } from "../../../ui/problem-text";
import type { FieldProblem, NodeJson } from "./node-json";

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
  options?: string[];
  element?: Schema;
  shape?: Record<string, Schema>;
  def: { type: string; options?: Schema[]; values?: unknown[] };
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
};

/** What the value is checked against, under its optional, default and transform wrappers. */
const innermost = (schema: Schema) => layersOf(schema).at(-1) as Schema;

// Settings whose name alone is not a noun a sentence can take ("Enter a left value.").
const NAMED: Record<string, string> = { left: "Left value", right: "Right value" };

/** "responseTimeoutSeconds" → "Response timeout seconds", "httpMethod" → "HTTP method". */
const label = (name: string) => NAMED[name] ?? labelOf(name);

function field(path: string, outer: Schema, templated: readonly string[]): Field {
  const inner = innermost(outer);
  const described = layersOf(outer).find((layer) => getOpenApiMetadata(layer).description);
  const common: Common = {
    path,
    label: label(path.split(".").pop() ?? path),
    description: (described && getOpenApiMetadata(described).description) ?? "",
    // As the OpenAPI document has it: a setting is required when it may not be left out.
    required: !outer.safeParse(undefined).success,
    templated: templated.includes(path),
  };
  const element = inner.element && innermost(inner.element);
  const [off, object] = inner.def.options ?? [];
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
      return element?.def.type === "enum"
        ? { ...common, kind: "choices", options: element.options ?? [] }
        : { ...common, kind: "json" };
    case "object":
      return {
        ...common,
        kind: "group",
        fields: Object.entries(inner.shape ?? {}).map(([key, child]) =>
          field(`${path}.${key}`, child, templated),
        ),
      };
    case "unknown":
      return { ...common, kind: "value" };
    case "union": {
      // An object or `false`: the object's group, which can be turned off.
      if (off?.def.type === "literal" && off.def.values?.[0] === false && object) {
        const group = field(path, object, templated);
        if (group.kind === "group") return { ...group, ...common, offable: true };
      }
      return { ...common, kind: "json" };
    }
    default:
      return { ...common, kind: "json" };
  }
}

const cache = new Map<NodeType, Field[]>();

/** The settings of a `type` node as panel fields, in the model's order (cached). */
export function fieldsOf(type: NodeType): Field[] {
  let fields = cache.get(type);
  if (!fields) {
    const { schema, templated } = NODE_MODELS[type];
    fields = Object.entries(schema.shape as Record<string, Schema>)
      .filter(([name]) => !PANEL_OWN.has(name))
      .map(([name, setting]) => field(name, setting, templated));
    cache.set(type, fields);
  }
  return fields;
}

/**
 * The workflow's own settings as panel fields (docs/dashboard.md#workflow-settings): its
 * `concurrency`, from the schema the API validates it with; optional, as the API takes it.
 */
export const workflowSettingFields = once((): Field[] => {
  const { Concurrency } = concurrencySchemas();
  const templated = CONCURRENCY_TEMPLATED.map((name) => `concurrency.${name}`);
  return [field("concurrency", Concurrency.optional() as Schema, templated)];
});

/** The labels of the workflow's own settings, by path (for problem-text). */
export function workflowSettingLabels(): FieldLabels {
  return withLabels({}, workflowSettingFields());
}

/** What the schema says of the workflow's settings now, in plain words, by path. */
export function checkWorkflowSettings(settings: { concurrency?: unknown }): FieldProblem[] {
  if (settings.concurrency === undefined) return [];
  const parsed = concurrencySchemas().Concurrency.safeParse(settings.concurrency);
  if (parsed.success) return [];
  const labels = workflowSettingLabels();
  return parsed.error.issues.map((issue) => {
    const path = ["concurrency", ...issue.path];
    return { field: path.join("."), message: issueText({ ...issue, path }, labels) };
  });
}

/** How problem-text names a setting's control: a choice is chosen, an object typed as JSON. */
const KINDS: Partial<Record<Field["kind"], FieldKind>> = {
  choice: "choice",
  choices: "choice",
  number: "number",
  boolean: "boolean",
  json: "json",
  group: "json",
};

/** `labels` with those of `fields` and of the fields in their groups added, by path. */
function withLabels(labels: FieldLabels, fields: Field[]): FieldLabels {
  for (const each of fields) {
    labels[each.path] = { label: each.label, kind: KINDS[each.kind] ?? "text" };
    if (each.kind === "group") withLabels(labels, each.fields);
  }
  return labels;
}

/** The panel's labels of a `type` node's settings (and of its name and key), by path. */
export function labelsOf(type: NodeType): FieldLabels {
  return withLabels({ name: { label: "Label" }, key: { label: "Key" } }, fieldsOf(type));
}

/** The labels of a setting at `path` in any node type, when they all agree (for the API's problems). */
export const labelsAnyType = once((): FieldLabels => {
  const merged: Record<string, FieldLabels[string] | null> = {};
  for (const type of Object.keys(NODE_MODELS) as NodeType[]) {
    for (const [path, label] of Object.entries(labelsOf(type))) {
      const known = merged[path];
      merged[path] = known === undefined || (known && known.kind === label.kind) ? label : null;
    }
  }
  return Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, FieldLabels[string]] => !!entry[1]),
  );
});

/**
 * What the node's model says of `node`, as the API would: a problem per refused setting, `field`
 * its path (`dedupe.key`, `events[0]`), "" for the node as a whole; each message in plain words
 * with the panel's label of the setting (problem-text.ts), e.g. "Choose an operator.".
 */
export function checkNode(node: NodeJson): FieldProblem[] {
  const verdict = judge<unknown>(NODE_MODELS[node.type], node);
  if (verdict.ok) return [];
  const labels = labelsOf(node.type);
  return verdict.problems.map((problem) => ({
    field: problem.field,
    message: detailText(problem, labels),
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
