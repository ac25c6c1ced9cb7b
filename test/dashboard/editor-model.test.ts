/**
 * The workflow editor's pure parts (docs/dashboard.md#workflow-editor): the canvas model and back,
 * new keys, the layout, a refused save's problems by node, the panel's fields from the node
 * schemas (every setting of every type), the "any JSON" text rule and template suggestions.
 */
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../src/dashboard/api";
import {
  checkNode,
  fieldsOf,
  mergeProblems,
  stillStanding,
} from "../../src/dashboard/screens/workflows/editor/fields";
import { layout, NODE_SIZE, overlaps } from "../../src/dashboard/screens/workflows/editor/layout";
import {
  fromWorkflow,
  type NodeJson,
  nextKey,
  sortProblems,
  toDefinition,
} from "../../src/dashboard/screens/workflows/editor/model";
import { pathsOf, suggestionsFor } from "../../src/dashboard/screens/workflows/editor/suggestions";
import { insideJsonString } from "../../src/dashboard/screens/workflows/editor/TemplateInput";
import {
  setAt,
  textToValue,
  valueToText,
} from "../../src/dashboard/screens/workflows/editor/values";
import { NODE_MODELS, NODE_TYPES, type NodeType } from "../../src/workflows/nodes/models";
import { CORPUS, type Corpus } from "../helpers/node-corpus";
import { webhook } from "../helpers/node-corpus-webhook";

const workflow: Schemas["Workflow"] = {
  id: "wf_1",
  name: "W",
  slug: "w",
  status: "stopped",
  nodes: [
    { key: "hook", type: "webhook", position: { x: 10, y: 20 } },
    { key: "check", type: "condition", left: "{{hook.body.a}}", operator: "exists" },
    { key: "yes", type: "set", fields: { order: { id: 1 } } },
  ],
  connections: [
    { from: "hook", to: "check" },
    { from: "check", to: "yes", branch: "true" },
  ],
  concurrency: null,
  notes: [],
  webhookUrls: {},
  webhookTestUrls: {},
  createdAt: "",
  updatedAt: "",
};

describe("the canvas model", () => {
  it("round-trips a definition: saved places kept, the others laid out, branches as handles", () => {
    const { nodes, edges } = fromWorkflow(workflow);
    const [hook, check, yes] = nodes.map((node) => node.position);
    expect(hook).toEqual({ x: 10, y: 20 });
    // Laid out by dagre, left to right along the connections, clear of the saved node.
    expect(check?.x).toBeGreaterThanOrEqual(10 + NODE_SIZE.width);
    expect(yes?.x).toBeGreaterThanOrEqual((check?.x ?? 0) + NODE_SIZE.width);
    expect(edges.map((edge) => edge.sourceHandle)).toEqual([null, "true"]);
    const back = toDefinition(nodes, edges);
    expect(back.connections).toEqual(workflow.connections);
    expect(back.nodes[2]).toEqual({ ...workflow.nodes[2], position: yes });
  });

  it("lays every node out again with dagre: a column per step, no two nodes overlapping", () => {
    const nodes: NodeJson[] = [
      { key: "hook", type: "webhook", position: { x: 0, y: 0 } },
      { key: "check", type: "condition", position: { x: 0, y: 0 } },
      { key: "yes", type: "set", position: { x: 0, y: 0 } },
      { key: "no", type: "set", position: { x: 0, y: 0 } },
      { key: "alone", type: "wait", position: { x: 0, y: 0 } },
      { key: "after", type: "respond", position: { x: 0, y: 0 } },
    ];
    const connections = [
      { from: "hook", to: "check" },
      { from: "check", to: "yes", branch: "true" as const },
      { from: "check", to: "no", branch: "false" as const },
      { from: "yes", to: "after" },
    ];
    const places = layout(nodes, connections, true);
    const at = (key: string) => places.get(key) ?? { x: Number.NaN, y: Number.NaN };
    expect(at("check").x).toBeGreaterThan(at("hook").x);
    expect(at("yes").x).toBeGreaterThan(at("check").x);
    expect(at("yes").x).toBe(at("no").x);
    expect(at("after").x).toBeGreaterThan(at("yes").x);
    const boxes = [...places.values()];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    }
    // Without `all`, saved places stay and only the unplaced node moves, clear of the others.
    const kept = layout(
      [...nodes.slice(0, 2), { key: "new", type: "set" } as NodeJson],
      connections,
    );
    expect(kept.get("hook")).toEqual({ x: 0, y: 0 });
    expect(kept.get("check")).toEqual({ x: 0, y: 0 });
    const added = kept.get("new") ?? { x: 0, y: 0 };
    expect(overlaps(added, { x: 0, y: 0 })).toBe(false);
  });

  it("gives a new node the smallest free <type>_<n>", () => {
    expect(nextKey("set", ["set_1", "set_3", "wait_2"])).toBe("set_2");
    expect(nextKey("wait", [])).toBe("wait_1");
  });

  it("puts a refused save's problems on the nodes they name, by the saved order", () => {
    const sorted = sortProblems(
      [
        { field: "nodes[1].left", code: "invalid_reference", message: "Not earlier." },
        { field: "nodes[0]", code: "x", message: "Whole node." },
        { field: "connections[0].to", code: "unknown_node", message: "No such node." },
      ],
      ["n5", "n2"],
    );
    expect(sorted.byNode.get("n2")).toEqual([{ field: "left", message: "Not earlier." }]);
    expect(sorted.byNode.get("n5")).toEqual([{ field: "", message: "Whole node." }]);
    expect(sorted.general).toEqual(["Connection 1: no such node."]);
  });

  it("says a refused save's problems in plain words, with the setting's label", () => {
    const sorted = sortProblems(
      [
        { field: "nodes[0].operator", code: "required", message: "operator is required." },
        { field: "nodes[1].fields", code: "invalid_type", message: "Invalid input" },
      ],
      ["n0", "n1"],
    );
    expect(sorted.byNode.get("n0")).toEqual([
      { field: "operator", message: "Choose an operator." },
    ]);
    expect(sorted.byNode.get("n1")).toEqual([
      { field: "fields", message: "Enter the fields as a JSON object." },
    ]);
  });
});

describe("the panel's fields", () => {
  it.each(NODE_TYPES)("shows every setting of a %s node, from its model", (type) => {
    const settings = Object.keys(NODE_MODELS[type].schema.shape).filter(
      (name) => !["key", "type", "name", "position"].includes(name),
    );
    expect(fieldsOf(type).map((field) => field.path)).toEqual(settings);
  });

  it("carries the schema's kinds, ranges, options, groups and template settings", () => {
    const webhook = Object.fromEntries(fieldsOf("webhook").map((field) => [field.path, field]));
    expect(webhook.responseTimeoutSeconds).toMatchObject({
      kind: "number",
      min: 1,
      max: 100,
      integer: true,
      required: false,
      label: "Response timeout seconds",
    });
    expect(webhook.httpMethod).toMatchObject({ kind: "choice", label: "HTTP method" });
    // dedupe is an object or false: its group, which can be turned off.
    expect(webhook.dedupe).toMatchObject({ kind: "group", offable: true, required: false });
    const dedupe = webhook.dedupe?.kind === "group" ? webhook.dedupe.fields : [];
    expect(dedupe.map((field) => field.path)).toEqual(["dedupe.key", "dedupe.windowSeconds"]);
    expect(dedupe.find((field) => field.path === "dedupe.key")?.templated).toBe(true);
    expect(dedupe.find((field) => field.path === "dedupe.windowSeconds")).toMatchObject({
      kind: "number",
      max: 604_800,
    });
    expect(checkNode({ key: "h", type: "webhook", dedupe: false })).toEqual([]);
    expect(webhook.verify).toMatchObject({ kind: "json", templated: false });
    expect(fieldsOf("condition").find((f) => f.path === "left")).toMatchObject({
      kind: "value",
      templated: true,
      required: true,
    });
    expect(fieldsOf("conversation_event").find((f) => f.path === "events")).toMatchObject({
      kind: "choices",
    });
  });

  it("offers debounce and batch as groups of their own fields, keys as templates", () => {
    const webhook = Object.fromEntries(fieldsOf("webhook").map((field) => [field.path, field]));
    const group = (name: string) => {
      const field = webhook[name];
      expect(field).toMatchObject({ kind: "group", required: false });
      return Object.fromEntries(
        (field?.kind === "group" ? field.fields : []).map((inner) => [inner.path, inner]),
      );
    };
    const debounce = group("debounce");
    expect(Object.keys(debounce)).toEqual([
      "debounce.key",
      "debounce.periodSeconds",
      "debounce.maxWaitSeconds",
    ]);
    expect(debounce["debounce.key"]).toMatchObject({ templated: true, required: true });
    expect(debounce["debounce.periodSeconds"]).toMatchObject({ kind: "number", max: 86_400 });
    const batch = group("batch");
    expect(batch["batch.maxSize"]).toMatchObject({ kind: "number", min: 2, max: 1_000 });
    expect(batch["batch.maxWaitSeconds"]).toMatchObject({ max: 3_600 });
    expect(batch["batch.key"]).toMatchObject({ templated: true, required: false });
  });

  it("tells a fault the API and the schema both find once, in the API's words", () => {
    const saved = [{ field: "events[0]", message: "Use conversation.started, …" }];
    const local = [
      { field: "events.0", message: "Invalid option" },
      { field: "agentId", message: "Too small" },
    ];
    expect(mergeProblems(saved, local)).toEqual([saved[0], local[1]]);
  });

  it("drops the API's problem with a setting once it is changed, keeps the others", () => {
    const saved = [
      { field: "left", message: "Not earlier." },
      { field: "right", message: "Not earlier." },
      { field: "", message: "Whole node." },
    ];
    const before = { key: "c", type: "condition" as const, left: "{{x.a}}", right: "{{x.b}}" };
    expect(stillStanding(saved, before, { ...before, left: "{{hook.a}}" })).toEqual([
      saved[1],
      saved[2],
    ]);
  });

  it.each(NODE_TYPES)("judges the corpus's %s nodes as the API does, field by field", (type) => {
    const { valid, invalid } = ({ webhook, ...CORPUS } as Record<NodeType, Corpus>)[type];
    for (const node of valid) expect(checkNode({ key: "hook", ...node } as NodeJson)).toEqual([]);
    for (const { node, problems } of invalid) {
      const fields = checkNode(node as NodeJson).map((problem) => problem.field);
      expect(new Set(fields)).toEqual(
        new Set(problems.map((problem) => problem.slice(0, problem.lastIndexOf(" ")))),
      );
    }
  });

  it("checks a node with the API's model, each problem by its setting", () => {
    expect(checkNode({ key: "w", type: "wait", seconds: 5 })).toEqual([]);
    const problems = checkNode({ key: "w", type: "wait", seconds: 86_401 });
    expect(problems.map((problem) => problem.field)).toEqual(["seconds"]);
  });

  it("says a node nobody touched is missing its settings in plain words", () => {
    expect(checkNode({ key: "c", type: "condition", left: "{{a.b}}", right: 1 })).toEqual([
      { field: "operator", message: "Choose an operator." },
    ]);
    // A setting's label is a noun a sentence can take: "Enter a left value.", not "Enter a left.".
    expect(checkNode({ key: "c", type: "condition" })).toEqual([
      { field: "left", message: "Enter a left value." },
      { field: "operator", message: "Choose an operator." },
    ]);
    const set = checkNode({ key: "s", type: "set" });
    expect(set.map((problem) => problem.message).join(" ")).not.toMatch(
      /expected|received|Invalid/,
    );
    expect(checkNode({ key: "s", type: "set", fields: "x" })).toEqual([
      { field: "fields", message: "Enter the fields as a JSON object." },
    ]);
  });
});

describe("typed values", () => {
  it.each([
    ["42", 42],
    ["true", true],
    ['{"a":1}', { a: 1 }],
    ["{{hook.body.a}}", "{{hook.body.a}}"],
    ['"42"', "42"],
    ["", undefined],
  ])("reads %j as %j and shows it back the same", (text, value) => {
    expect(textToValue(text)).toEqual(value);
    expect(valueToText(value)).toBe(text);
  });

  it("sets and removes settings by path, dropping groups left empty", () => {
    const node = { key: "h", type: "webhook" as const, dedupe: { key: "{{h.body.id}}" } };
    expect(setAt(node, "dedupe.windowSeconds", 60).dedupe).toEqual({
      key: "{{h.body.id}}",
      windowSeconds: 60,
    });
    expect(setAt(node, "dedupe.key", undefined)).not.toHaveProperty("dedupe");
    // Turned off, then a field typed: the group is an object again.
    const off = setAt(node, "dedupe", false);
    expect(off.dedupe).toBe(false);
    expect(setAt(off, "dedupe.windowSeconds", 60).dedupe).toEqual({ windowSeconds: 60 });
  });

  it("knows when the caret is inside a JSON string", () => {
    expect(insideJsonString('{"a": "x', 8)).toBe(true);
    expect(insideJsonString('{"a": ', 6)).toBe(false);
    expect(insideJsonString('{"a\\"b": ', 9)).toBe(false);
  });
});

describe("template suggestions", () => {
  const { nodes, edges } = fromWorkflow(workflow);

  it("offers earlier nodes' fields, a sample's over the type's shape, and the secrets", () => {
    const offered = suggestionsFor({
      id: "n2",
      nodes,
      edges,
      samples: { hook: { body: { order: { id: 7 } }, headers: { "x-secret": "s" } } },
      secrets: ["HOOK_SECRET"],
    }).map((suggestion) => suggestion.template);
    expect(offered).toContain("{{hook.body.order.id}}");
    expect(offered).toContain("{{hook.headers.x-secret}}");
    expect(offered).toContain("{{check.result}}");
    expect(offered).toContain("{{secrets.HOOK_SECRET}}");
    expect(offered.some((template) => template.startsWith("{{yes."))).toBe(false);
  });

  it("offers a webhook only its own call and the execution id, never secrets", () => {
    const offered = suggestionsFor({ id: "n0", nodes, edges, samples: {}, secrets: ["S"] });
    expect(offered.map((suggestion) => suggestion.template)).toEqual([
      "{{hook.body}}",
      "{{hook.headers}}",
      "{{hook.queryParams}}",
      "{{hook.method}}",
      "{{$execution.id}}",
    ]);
  });

  it("leaves out keys a template path cannot address", () => {
    expect(pathsOf({ "a.b": 1, " c": 2, ok: { "x y": 3 } })).toEqual(["ok", "ok.x y"]);
  });
});
