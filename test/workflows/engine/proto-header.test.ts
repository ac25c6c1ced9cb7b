/** zod drops a record's `__proto__` key; the node model refuses it instead (docs/api/webhooks.md#http-request-node). */
import { describe, expect, it } from "vitest";
import { parseDefinition } from "../../../src/workflows/nodes/validate";

describe("an http_request header named __proto__", () => {
  it("is refused with its field, not dropped", () => {
    const result = parseDefinition(
      JSON.parse(
        '{"nodes":[{"type":"webhook"},{"key":"h","type":"http_request","url":"https://example.com","headers":{"__proto__":"x","ok":"y"}}],"connections":[{"from":"webhook_1","to":"h"}]}',
      ),
    );
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: "nodes[1].headers.__proto__", code: "invalid_header" },
    ]);
  });
});
