import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "../../src/db/schema";
import { parameterProblems } from "../../src/launch/parameters";

const definitions: ParameterDefinition[] = [
  { name: "plan", type: "string", required: true },
  { name: "tier", type: "string", required: false, options: ["free", "pro"] },
  { name: "balance", type: "number", required: false },
  { name: "seats", type: "integer", required: false },
  { name: "vip", type: "boolean", required: false },
];

describe("parameterProblems", () => {
  it("accepts values of the defined types", () => {
    expect(
      parameterProblems(definitions, {
        plan: "a",
        tier: "pro",
        balance: 1.5,
        seats: 3,
        vip: false,
      }),
    ).toEqual([]);
  });

  it.each([
    ["a string for a number", { balance: "5" }, "balance"],
    ["1.5 for an integer", { seats: 1.5 }, "seats"],
    ["a string for an integer", { seats: "3" }, "seats"],
    ["a number for a boolean", { vip: 1 }, "vip"],
    ["a string for a boolean", { vip: "true" }, "vip"],
    ["a number for a string", { tier: 1 }, "tier"],
    ["null", { balance: null }, "balance"],
    ["an object", { balance: { n: 1 } }, "balance"],
  ])("refuses %s without converting it", (_label, values, name) => {
    expect(parameterProblems(definitions, { plan: "x", ...values })).toEqual([
      { code: "invalid_type", name },
    ]);
  });

  it("lists every problem at once, in a stable order", () => {
    expect(parameterProblems(definitions, { extra: 1, tier: "gold", seats: 2.5 })).toEqual([
      { code: "unknown_parameter", name: "extra" },
      { code: "invalid_option", name: "tier" },
      { code: "invalid_type", name: "seats" },
      { code: "missing_required", name: "plan" },
    ]);
  });
});
