import { describe, expect, it } from "vitest";
import { flowKey, MAX_FLOW_KEY_LENGTH } from "../../src/workflows/runner/flow-key";

describe("flowKey", () => {
  const output = {
    body: { customer: "cus_1", n: 7 },
    headers: {},
    queryParams: {},
    method: "POST",
  };
  it("renders the template over the trigger's output", () => {
    expect(flowKey("{{webhook_1.body.customer}}", "webhook_1", output)).toBe("cus_1");
    expect(flowKey("{{webhook_1.body.n}}", "webhook_1", output)).toBe("7");
    expect(flowKey("c-{{webhook_1.body.customer}}", "webhook_1", output)).toBe("c-cus_1");
  });
  it('counts a key that renders empty, or no key, under ""', () => {
    expect(flowKey("{{webhook_1.body.missing}}", "webhook_1", output)).toBe("");
    expect(flowKey(undefined, "webhook_1", output)).toBe("");
  });
  it("cuts a long key", () => {
    const long = { ...output, body: { customer: "x".repeat(2_000) } };
    expect(flowKey("{{webhook_1.body.customer}}", "webhook_1", long)).toHaveLength(
      MAX_FLOW_KEY_LENGTH,
    );
  });
});
