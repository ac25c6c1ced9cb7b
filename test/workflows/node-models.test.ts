/**
 * The node models (src/workflows/nodes/models.ts) against the corpus (test/helpers/node-corpus*.ts):
 * every node of it is accepted, or refused with exactly the problems the API documents (field
 * relative to the node, then code; docs/api/webhooks.md#definition); the OpenAPI union accepts
 * the valid ones as sent and as stored; and the corpus uses every setting of every type, valid
 * and not.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  isTriggerNode,
  NODE_MODELS,
  NODE_TYPES,
  type NodeType,
  workflowNodeSchema,
} from "../../src/workflows/nodes/models";
import { layersOf } from "../../src/workflows/nodes/problems";
import { parseDefinition } from "../../src/workflows/nodes/validate";
import { CORPUS, type Corpus, type RawNode } from "../helpers/node-corpus";
import { webhook } from "../helpers/node-corpus-webhook";

const corpus: Record<NodeType, Corpus> = { webhook, ...CORPUS };
const COMMON_FIELDS = ["key", "type", "name", "position"];

/** A responseNode webhook, so every other type (respond included) may follow it. */
const HOOK = { key: "hook", type: "webhook", responseMode: "responseNode" };

/** A minimal valid workflow around `node`, and where the node is in it. */
function around(node: RawNode) {
  if (isTriggerNode({ type: String(node.type) })) {
    return { definition: { nodes: [node], connections: [] }, path: "nodes[0]" };
  }
  const key = typeof node.key === "string" ? node.key : `${String(node.type)}_1`;
  const definition = { nodes: [HOOK, node], connections: [{ from: "hook", to: key }] };
  return { definition, path: "nodes[1]" };
}

/** The API's verdict on `node`: its problems as `field code`, the field from the node. */
function problemsOf(node: RawNode) {
  const { definition, path } = around(node);
  const result = parseDefinition(definition);
  if (result.ok) return { problems: [], parsed: result.definition.nodes.at(-1) };
  const problems = result.problems.map(({ field, code }) => {
    const relative = field.startsWith(`${path}.`) ? field.slice(path.length + 1) : field;
    return `${relative} ${code}`;
  });
  return { problems, parsed: undefined };
}

/** The first segment of a field path: `verify` of `verify.header`, `events` of `events[0]`. */
const setting = (field: string) => field.split(/[.[ ]/)[0];

/** The property names of an object schema, through its wrappers (and a union's options). */
function keysOf(schema: z.ZodType): string[] {
  const inner = layersOf(schema).at(-1) as z.ZodType & {
    shape?: Record<string, unknown>;
    options?: z.ZodType[];
  };
  if (inner.shape) return Object.keys(inner.shape);
  return [...new Set((inner.options ?? []).flatMap(keysOf))];
}

/** Settings that take any JSON value: no value of theirs is invalid. */
const ANY_VALUE = [
  ...["condition right", "http_request body"],
  ...["create_link parameters", "create_link metadata"],
];

const label = (node: RawNode) => JSON.stringify(node).slice(0, 160);

describe.each(NODE_TYPES)("the %s node model", (type) => {
  const { valid, invalid } = corpus[type];
  const shape = NODE_MODELS[type].schema.shape as Record<string, z.ZodType>;

  it.each(valid.map((node) => [label(node), node] as const))("accepts %s", (_, node) => {
    const { problems, parsed } = problemsOf(node);
    expect(problems).toEqual([]);
    expect(workflowNodeSchema().safeParse(node).error?.issues).toBeUndefined();
    // The stored node, every default filled in, is what responses show.
    expect(workflowNodeSchema().safeParse(parsed).error?.issues).toBeUndefined();
  });

  it.each(invalid.map(({ node, problems }) => [label(node), node, problems] as const))(
    "refuses %s",
    (_, node, expected) => {
      expect(problemsOf(node).problems.sort()).toEqual([...expected].sort());
      expect(workflowNodeSchema().safeParse(node).success).toBe(false);
    },
  );

  it("covers every setting, valid and not", () => {
    const fields = Object.keys(shape).sort();
    const used = new Set(valid.flatMap((node) => Object.keys(node)));
    expect([...used].sort()).toEqual(fields);
    const refused = new Set(invalid.flatMap(({ problems }) => problems.map(setting)));
    // key and name are common to every type; the webhook corpus tries them.
    const common = type === "webhook" ? ["type"] : COMMON_FIELDS;
    for (const field of fields.filter((name) => !common.includes(name))) {
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
    ["webhook", "verify"],
    ["webhook", "dedupe"],
    ["http_request", "retry"],
  ] as const)("%s %s: every field is used, valid and not", (type, name) => {
    const shape = NODE_MODELS[type].schema.shape as Record<string, z.ZodType>;
    const fields = keysOf(shape[name] as z.ZodType);
    expect(new Set(nested(type, name))).toEqual(new Set(fields));
    for (const field of fields) expect(refused(type, name), `an invalid ${field}`).toContain(field);
  });
});

describe("a node without a known type", () => {
  it.each([
    [{ type: "teleport" }, "unknown_node_type"],
    [{ key: "x" }, "required"],
    [{ type: 5 }, "invalid_type"],
  ])("%j is refused", (node, code) => {
    const result = parseDefinition({ nodes: [{ type: "webhook" }, node], connections: [] });
    expect(result.ok ? [] : result.problems).toContainEqual(
      expect.objectContaining({ field: "nodes[1].type", code }),
    );
    expect(workflowNodeSchema().safeParse(node).success).toBe(false);
  });
});

describe("null where a setting may be left out", () => {
  // The hand-written validator took null as "left out" for these four settings, and the model
  // keeps that; the OpenAPI document shows them without null.
  const secret = "{{secrets.S}}";
  it.each([
    { type: "webhook", verify: { preset: "stripe", secret, toleranceSeconds: null } },
    { type: "webhook", verify: { preset: "hmac-sha256", secret, header: "x", encoding: null } },
    { type: "webhook", verify: { preset: "hmac-sha256", secret, header: "x", prefix: null } },
    { type: "webhook", dedupe: { key: "{{webhook_1.body.id}}", windowSeconds: null } },
  ])("is accepted as left out: %j", (node) => {
    expect(problemsOf(node).problems).toEqual([]);
    const { parsed } = problemsOf(node);
    expect(JSON.stringify(parsed)).not.toContain("null");
  });
});

describe("problems that come together", () => {
  const secret = "{{secrets.S}}";
  const headers = { ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-${i}`, "v"])) };
  it.each([
    // A rule across settings still runs after a number that is not whole (zod's int check aborts).
    [
      { type: "webhook", responseMode: "lastNode", responseStatus: 1.5 },
      ["responseStatus not_allowed"],
    ],
    [
      { type: "webhook", responseTimeoutSeconds: 2.5, dedupe: { windowSeconds: 60 } },
      ["responseTimeoutSeconds out_of_range", "dedupe.key required"],
    ],
    // A setting the mode does not take is not judged further.
    [
      { type: "webhook", responseMode: "responseNode", responseHeaders: { "a b": 1 } },
      ["responseHeaders not_allowed"],
    ],
    // Another preset's null is still a setting it does not take; a preset that is none of them
    // does not hide the other problems.
    [
      { type: "webhook", verify: { preset: "stripe", secret, encoding: null } },
      ["verify.encoding not_allowed"],
    ],
    [
      { type: "webhook", verify: { preset: "gitlub" } },
      ["verify.preset invalid_option", "verify.secret invalid_secret"],
    ],
    // A value of the wrong type is said to be only that.
    [{ type: "webhook", name: [] }, ["name invalid_type"]],
    // An entry refused for its name still counts; a redirect without headers is told so too.
    [
      { type: "respond", headers: { ...headers, "a b": "v" } },
      ["headers too_large", "headers.a b invalid_header"],
    ],
    [
      { type: "respond", status: 302, headers: "x" },
      ["headers invalid_type", "headers missing_location"],
    ],
  ])("%j: %j", (node, expected) => {
    expect(problemsOf(node).problems.sort()).toEqual([...expected].sort());
  });
});
