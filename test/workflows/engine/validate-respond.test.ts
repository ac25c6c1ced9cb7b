/**
 * Validation of responseNode webhooks and respond nodes (docs/webhooks.md#respond-node): defaults,
 * every problem listed at once, and the rule that a respond node follows a responseNode webhook.
 */
import { describe, expect, it } from "vitest";
import { parseDefinition } from "../../../src/workflows/nodes/validate";

const fieldsAndCodes = (result: ReturnType<typeof parseDefinition>) =>
  result.ok ? [] : result.problems.map(({ field, code }) => `${field} ${code}`).sort();

describe("parseDefinition: respond nodes", () => {
  it("fills a respond node's defaults and accepts responseNode webhooks", () => {
    const result = parseDefinition({
      nodes: [
        { type: "webhook", responseMode: "responseNode", responseTimeoutSeconds: 5 },
        { type: "respond", headers: { "X-Run": "{{$execution.id}}" }, body: "{{webhook_1.body}}" },
      ],
      connections: [{ from: "webhook_1", to: "respond_1" }],
    });
    expect(result.ok && result.definition.nodes).toEqual([
      expect.objectContaining({ responseMode: "responseNode", responseTimeoutSeconds: 5 }),
      {
        key: "respond_1",
        name: "Respond",
        type: "respond",
        status: 200,
        headers: { "x-run": "{{$execution.id}}" },
        body: "{{webhook_1.body}}",
        contentType: "json",
      },
    ]);
  });

  it("lists every problem of respond nodes and responseNode webhooks together", () => {
    const result = parseDefinition({
      nodes: [
        { type: "webhook", responseMode: "responseNode", responseStatus: 201 },
        { key: "lonely", type: "webhook", responseMode: "lastNode" },
        {
          key: "bad",
          type: "respond",
          status: 302,
          contentType: "pdf",
          headers: {
            connection: "close",
            "content-length": "3",
            "set-cookie": "a=1; domain=evil.example",
            "bad name": "x",
          },
          body: "moved",
        },
        { key: "status", type: "respond", status: 600, headers: "x" },
        { key: "typed", type: "respond", status: "200", contentType: 1 },
        { key: "orphan", type: "respond" },
        { key: "late", type: "respond", body: "{{secrets.X}} {{$execution.id}}" },
        { key: "note", type: "set", fields: { id: "{{$execution.id}}" } },
      ],
      connections: [
        { from: "webhook_1", to: "bad" },
        { from: "webhook_1", to: "status" },
        { from: "webhook_1", to: "typed" },
        { from: "lonely", to: "orphan" },
        { from: "bad", to: "late" },
        { from: "webhook_1", to: "note" },
      ],
    });
    expect(fieldsAndCodes(result)).toEqual(
      [
        "nodes[0].responseStatus not_allowed",
        "nodes[2].contentType invalid_option",
        "nodes[2].headers.connection refused_header",
        "nodes[2].headers.content-length refused_header",
        "nodes[2].headers.set-cookie refused_header",
        "nodes[2].headers.bad name invalid_header",
        "nodes[2].headers missing_location",
        "nodes[2].body not_allowed",
        "nodes[3].status out_of_range",
        "nodes[3].headers invalid_type",
        "nodes[4].status invalid_type",
        "nodes[4].contentType invalid_type",
        "nodes[5] respond_unreachable",
        "nodes[7].fields.id invalid_reference",
      ].sort(),
    );
  });
});
