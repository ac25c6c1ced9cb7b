/**
 * The node schemas of the OpenAPI document (src/workflows/nodes/node-schemas.ts) against `parseDefinition`,
 * the authority: every node of the corpus (test/helpers/node-corpus*.ts) is accepted by both or
 * refused by both, and the corpus uses every setting of every type, valid and not.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { nodeSchemas } from "../../src/workflows/nodes/node-schemas";
import { COMMON_FIELDS, NODE_SETTINGS } from "../../src/workflows/nodes/node-settings";
import { NODE_TYPES, type NodeType, TRIGGER_TYPES } from "../../src/workflows/nodes/types";
import { parseDefinition } from "../../src/workflows/nodes/validate";
import { DEDUPE_FIELDS } from "../../src/workflows/nodes/validate-dedupe";
import { RETRY_FIELDS } from "../../src/workflows/nodes/validate-retry";
import { VERIFY_FIELDS } from "../../src/workflows/nodes/validate-verify";
import { CORPUS, type Corpus, type RawNode } from "../helpers/node-corpus";
import { webhook } from "../helpers/node-corpus-webhook";

const { NODE_SCHEMAS, WorkflowNodeSchema } = nodeSchemas();
const corpus: Record<NodeType, Corpus> = { webhook, ...CORPUS };

/** A responseNode webhook, so every other type (respond included) may follow it. */
const HOOK = { key: "hook", type: "webhook", responseMode: "responseNode" };

/** A minimal valid workflow around `node`, and where the node is in it. */
function around(node: RawNode) {
  if ((TRIGGER_TYPES as readonly unknown[]).includes(node.type)) {
    return { definition: { nodes: [node], connections: [] }, path: "nodes[0]" };
  }
  const key = typeof node.key === "string" ? node.key : `${String(node.type)}_1`;
  const definition = { nodes: [HOOK, node], connections: [{ from: "hook", to: key }] };
  return { definition, path: "nodes[1]" };
}

/** parseDefinition's verdict on `node`: its problems as `field code`, the field from the node. */
function validatorProblems(node: RawNode) {
  const { definition, path } = around(node);
  const result = parseDefinition(definition);
  if (result.ok) return { problems: [], parsed: result.definition.nodes.at(-1) };
  const problems = result.problems.map(({ field, code }) => {
    const relative = field.startsWith(`${path}.`) ? field.slice(path.length + 1) : field;
    return `${relative} ${code}`;
  });
  return { problems, parsed: undefined };
}

/** Where zod found problems: each issue's path (and the key, for an unknown one). */
function zodFields(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    return issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => [...path, key].join("."))
      : [path.join(".")];
  });
}

/** The first segment of a field path: `verify` of `verify.header`, `events` of `events[0]`. */
const setting = (field: string) => field.split(/[.[ ]/)[0];

/** Settings that take any JSON value: no value of theirs is invalid. */
const ANY_VALUE = ["condition right", "http_request body"];

const label = (node: RawNode) => JSON.stringify(node).slice(0, 160);

describe.each(NODE_TYPES)("the %s node schema", (type) => {
  const { valid, invalid } = corpus[type];

  it.each(valid.map((node) => [label(node), node] as const))("accepts %s", (_, node) => {
    const { problems, parsed } = validatorProblems(node);
    expect(problems).toEqual([]);
    expect(NODE_SCHEMAS[type].safeParse(node).error?.issues).toBeUndefined();
    expect(WorkflowNodeSchema.safeParse(node).success).toBe(true);
    // The stored node, every default filled in, is what responses show.
    expect(WorkflowNodeSchema.safeParse(parsed).error?.issues).toBeUndefined();
  });

  it.each(invalid.map(({ node, problems }) => [label(node), node, problems] as const))(
    "refuses %s",
    (_, node, expected) => {
      expect(validatorProblems(node).problems.sort()).toEqual([...expected].sort());
      const result = WorkflowNodeSchema.safeParse(node);
      expect(result.success).toBe(false);
      // zod refuses it for the same setting, not by chance for another.
      const settings = new Set(expected.map(setting));
      for (const field of zodFields(result.error as z.ZodError)) {
        expect(settings, `zod's ${field}`).toContain(setting(field));
      }
    },
  );

  it("covers every setting, valid and not", () => {
    const shape = Object.keys(NODE_SCHEMAS[type].shape).sort();
    expect(shape).toEqual([...COMMON_FIELDS, ...NODE_SETTINGS[type]].sort());
    const used = new Set(valid.flatMap((node) => Object.keys(node)));
    expect([...used].sort()).toEqual(shape);
    const refused = new Set(invalid.flatMap(({ problems }) => problems.map(setting)));
    // key and name are common to every type; the webhook corpus tries them.
    const common = type === "webhook" ? ["type"] : COMMON_FIELDS;
    for (const field of shape.filter((name) => !common.includes(name))) {
      if (!ANY_VALUE.includes(`${type} ${field}`)) {
        expect(refused, `an invalid ${field}`).toContain(field);
      }
    }
  });
});

describe("nested settings", () => {
  const nested = (type: NodeType, name: string) =>
    corpus[type].valid.flatMap((node) => Object.keys((node[name] as RawNode | undefined) ?? {}));
  const refused = (type: NodeType, name: string) =>
    corpus[type].invalid.flatMap(({ problems }) =>
      problems.flatMap((problem) => {
        const [field = ""] = problem.split(" ");
        return field.startsWith(`${name}.`) ? [field.slice(name.length + 1)] : [];
      }),
    );

  it.each([
    ["webhook", "verify", VERIFY_FIELDS],
    ["webhook", "dedupe", DEDUPE_FIELDS],
    ["http_request", "retry", RETRY_FIELDS],
  ] as const)("%s %s: every field is used, valid and not", (type, name, fields) => {
    expect(new Set(nested(type, name))).toEqual(new Set(fields));
    for (const field of fields) expect(refused(type, name), `an invalid ${field}`).toContain(field);
  });
});

describe("a node without a known type", () => {
  it.each([
    [{ type: "teleport" }, "unknown_node_type"],
    [{ key: "x" }, "required"],
    [{ type: 5 }, "invalid_type"],
  ])("%j is refused by both", (node, code) => {
    const result = parseDefinition({ nodes: [{ type: "webhook" }, node], connections: [] });
    expect(result.ok ? [] : result.problems).toContainEqual(
      expect.objectContaining({ field: "nodes[1].type", code }),
    );
    expect(WorkflowNodeSchema.safeParse(node).success).toBe(false);
  });
});

describe("known differences", () => {
  // parseDefinition takes null as "left out" for these four settings (`??` in validate-verify.ts)
  // and nowhere else; the schemas document the contract, without null. Once the validator refuses
  // null here too, these cases belong with the invalid ones of the corpus.
  const secret = "{{secrets.S}}";
  it.each([
    { type: "webhook", verify: { preset: "stripe", secret, toleranceSeconds: null } },
    { type: "webhook", verify: { preset: "hmac-sha256", secret, header: "x", encoding: null } },
    { type: "webhook", verify: { preset: "hmac-sha256", secret, header: "x", prefix: null } },
    { type: "webhook", dedupe: { key: "{{webhook_1.body.id}}", windowSeconds: null } },
  ])("null: the validator accepts %j, the schema does not", (node) => {
    expect(validatorProblems(node).problems).toEqual([]);
    expect(WorkflowNodeSchema.safeParse(node).success).toBe(false);
  });
});
