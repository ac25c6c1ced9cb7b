import { describe, expect, it } from "vitest";
import { parseDefinition } from "../../../src/workflows/nodes/validate";

const fieldsAndCodes = (result: ReturnType<typeof parseDefinition>) =>
  result.ok ? [] : result.problems.map(({ field, code }) => `${field} ${code}`).sort();

describe("parseDefinition: every problem at once", () => {
  it("lists all problems of a definition that has many", () => {
    const result = parseDefinition({
      nodes: [
        {
          type: "webhook",
          name: "",
          httpMethod: "post",
          responseMode: "later",
          responseTimeoutSeconds: 101,
          rateLimitPerMinute: 0.5,
        },
        { key: "1bad", type: "set", fields: "nope", httpMethod: "GET" },
        { key: "dup", type: "condition" },
        { key: "dup", type: "wait", seconds: 90_000 },
        {
          key: "req",
          type: "http_request",
          method: "FETCH",
          timeoutSeconds: 0,
          headers: { a: 1 },
          neverError: "yes",
        },
        { key: "tp", type: "teleport" },
        "not a node",
        { key: "secrets", type: "set", fields: { ok: "{{later.body}}", s: "{{secrets.X}}" } },
        { key: "later", type: "set", fields: { me: "{{later.x}}", list: ["{{ghost.x}}"] } },
        { key: "ce", type: "conversation_event", events: ["conversation.paused", 3] },
        { type: "wait", name: 7 },
        { key: 5, type: "set", fields: {} },
        { key: "c2", type: "condition", left: "x", operator: "bigger" },
        { key: "nt", name: "x".repeat(201) },
      ],
      connections: [
        { from: "webhook_1", to: "nowhere" },
        { from: "dup", to: "req" },
        { from: "req", to: "later", branch: "true" },
        { from: "later", to: "webhook_1" },
        { from: "c2", to: "req", branch: "maybe" },
        { from: "later", to: "c2", extra: 1 },
        { from: "later", to: "c2" },
        { to: "req", from: 3 },
        { to: "req" },
        7,
        { from: "tp", to: "req" },
      ],
    });
    expect(result.ok).toBe(false);
    expect(fieldsAndCodes(result)).toEqual(
      [
        "nodes[0].name out_of_range",
        "nodes[0].httpMethod invalid_http_method",
        "nodes[0].responseMode invalid_option",
        "nodes[0].responseTimeoutSeconds out_of_range",
        "nodes[0].rateLimitPerMinute out_of_range",
        "nodes[1].key invalid_key",
        "nodes[1].httpMethod unknown_field",
        "nodes[1].fields invalid_type",
        "nodes[2].left required",
        "nodes[2].operator required",
        "nodes[3].key duplicate_key",
        "nodes[3].seconds out_of_range",
        "nodes[4].method invalid_http_method",
        "nodes[4].url required",
        "nodes[4].headers.a invalid_type",
        "nodes[4].neverError invalid_type",
        "nodes[4].timeoutSeconds out_of_range",
        "nodes[5].type unknown_node_type",
        "nodes[6] invalid_type",
        "nodes[7].key invalid_key",
        "nodes[7].fields.ok invalid_reference",
        "nodes[8].fields.me invalid_reference",
        "nodes[8].fields.list[0] invalid_reference",
        "nodes[9].agentId required",
        "nodes[9].events[0] invalid_option",
        "nodes[9].events[1] invalid_type",
        "nodes[10].name invalid_type",
        "nodes[10].seconds required",
        "nodes[11].key invalid_type",
        "nodes[12].operator invalid_option",
        "nodes[13].name out_of_range",
        "nodes[13].type required",
        "connections[0].to unknown_node",
        "connections[1].branch missing_branch",
        "connections[2].branch unexpected_branch",
        "connections[3].to trigger_has_input",
        "connections[4].branch invalid_option",
        "connections[5].extra unknown_field",
        "connections[6] duplicate_connection",
        "connections[7].from invalid_type",
        "connections[8].from required",
        "connections[9] invalid_type",
        "connections cycle",
      ].sort(),
    );
    if (result.ok) return;
    const cycle = result.problems.find(({ code }) => code === "cycle");
    expect(cycle?.message).toBe("The connections form a cycle: req -> later -> c2 -> req.");
    const ghost = result.problems.find(({ field }) => field === "nodes[8].fields.list[0]");
    expect(ghost?.message).toContain('"ghost"');
  });

  it("reports wrong top-level types, no trigger and the size limits", () => {
    expect(fieldsAndCodes(parseDefinition({ nodes: {}, connections: "x" }))).toEqual([
      "connections invalid_type",
      "nodes invalid_type",
    ]);
    expect(fieldsAndCodes(parseDefinition({ nodes: [], connections: [] }))).toEqual([
      "nodes no_trigger",
    ]);
    const nodes = Array.from({ length: 101 }, () => ({ type: "set", fields: {} }));
    const connections = Array.from({ length: 501 }, () => ({ from: "set_1", to: "set_2" }));
    const result = fieldsAndCodes(
      parseDefinition({ nodes: [{ type: "webhook" }, ...nodes], connections }),
    );
    expect(result).toContain("nodes out_of_range");
    expect(result).toContain("connections out_of_range");
  });

  it("refuses templates that read the node itself, a later node or a sibling branch", () => {
    const result = parseDefinition({
      nodes: [
        { type: "webhook" },
        { key: "check", type: "condition", left: "{{check.result}}", operator: "exists" },
        { key: "yes", type: "set", fields: { v: "{{webhook_1.body}}" } },
        { key: "no", type: "http_request", url: "https://x.test/{{yes.v}}", body: "{{no.status}}" },
      ],
      connections: [
        { from: "webhook_1", to: "check" },
        { from: "check", to: "yes", branch: "true" },
        { from: "check", to: "no", branch: "false" },
      ],
    });
    expect(fieldsAndCodes(result)).toEqual([
      "nodes[1].left invalid_reference",
      "nodes[3].body invalid_reference",
      "nodes[3].url invalid_reference",
    ]);
  });
});

describe("parseDefinition: defaults", () => {
  it("gives a keyless webhook the key webhook_1 and the defaults of spec 2.5", () => {
    const result = parseDefinition({ nodes: [{ type: "webhook" }], connections: [] });
    expect(result).toStrictEqual({
      ok: true,
      definition: {
        nodes: [
          {
            key: "webhook_1",
            type: "webhook",
            name: "Webhook",
            httpMethod: "POST",
            responseMode: "immediate",
            responseTimeoutSeconds: 25,
            rateLimitPerMinute: 1200,
          },
        ],
        connections: [],
      },
    });
  });

  it("fills the defaults of every node type and skips keys already taken", () => {
    const input = {
      nodes: [
        { type: "conversation_event", agentId: "agt_1" },
        { type: "condition", left: "{{conversation_event_1.type}}", operator: "exists" },
        { type: "set", fields: { a: { b: "{{conversation_event_1.agentId}}" } } },
        { key: "set_1", type: "set", fields: {} },
        { type: "http_request", url: "https://example.test/hook" },
        { type: "wait", seconds: 1.5 },
      ],
      connections: [
        { from: "conversation_event_1", to: "condition_1" },
        { from: "condition_1", to: "set_2", branch: "true" },
        { from: "condition_1", to: "set_1", branch: "false" },
      ],
    };
    const result = parseDefinition(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.nodes).toStrictEqual([
      {
        key: "conversation_event_1",
        type: "conversation_event",
        name: "Conversation event",
        agentId: "agt_1",
        events: ["conversation.started", "conversation.ended"],
      },
      {
        key: "condition_1",
        type: "condition",
        name: "Condition",
        left: "{{conversation_event_1.type}}",
        operator: "exists",
        right: null,
      },
      {
        key: "set_2",
        type: "set",
        name: "Set",
        fields: { a: { b: "{{conversation_event_1.agentId}}" } },
      },
      { key: "set_1", type: "set", name: "Set", fields: {} },
      {
        key: "http_request_1",
        type: "http_request",
        name: "HTTP Request",
        method: "GET",
        url: "https://example.test/hook",
        headers: {},
        neverError: false,
        timeoutSeconds: 30,
      },
      { key: "wait_1", type: "wait", name: "Wait", seconds: 1.5 },
    ]);
    expect(result.definition.connections).toStrictEqual(input.connections);
    // Fresh objects: changing the result leaves the input alone.
    const set = result.definition.nodes[2];
    if (set?.type === "set") (set.fields.a as Record<string, unknown>).b = "changed";
    expect(input.nodes[2]).toEqual({
      type: "set",
      fields: { a: { b: "{{conversation_event_1.agentId}}" } },
    });
    expect(result.definition.connections[0]).not.toBe(input.connections[0]);
  });

  it("accepts the spec 5 shared-secret workflow with explicit settings", () => {
    const result = parseDefinition({
      nodes: [
        {
          key: "webhook_1",
          type: "webhook",
          name: "Orders",
          httpMethod: "PUT",
          responseMode: "lastNode",
        },
        {
          key: "check",
          type: "condition",
          left: "{{webhook_1.headers.x-webhook-secret}}",
          operator: "equals",
          right: "{{secrets.WEBHOOK_SECRET}}",
        },
        { key: "ok", type: "set", fields: { ok: true } },
        { key: "denied", type: "set", fields: { ok: false } },
      ],
      connections: [
        { from: "webhook_1", to: "check" },
        { from: "check", to: "ok", branch: "true" },
        { from: "check", to: "denied", branch: "false" },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.nodes[0]).toMatchObject({
      name: "Orders",
      httpMethod: "PUT",
      responseMode: "lastNode",
      responseTimeoutSeconds: 25,
    });
  });
});
