import { describe, expect, it } from "vitest";
import { evaluateCondition } from "../../../src/workflows/engine/condition";

describe("evaluateCondition (docs/api/webhooks.md operators)", () => {
  it("equals compares same-type primitives strictly and mixed primitives as text", () => {
    expect(evaluateCondition("equals", "s3cret", "s3cret")).toBe(true);
    expect(evaluateCondition("equals", "s3cret", "s3creT")).toBe(false);
    expect(evaluateCondition("equals", "s3cret", "s3cret ")).toBe(false);
    expect(evaluateCondition("equals", "", "")).toBe(true);
    expect(evaluateCondition("equals", 5, 5)).toBe(true);
    expect(evaluateCondition("equals", 5, "5")).toBe(true);
    expect(evaluateCondition("equals", true, "true")).toBe(true);
    expect(evaluateCondition("equals", false, "true")).toBe(false);
    expect(evaluateCondition("equals", null, null)).toBe(true);
    expect(evaluateCondition("equals", null, "")).toBe(false);
    expect(evaluateCondition("equals", 5, 6)).toBe(false);
  });

  it("equals compares objects and arrays structurally", () => {
    expect(evaluateCondition("equals", { a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(evaluateCondition("equals", { a: 1 }, { a: "1" })).toBe(false);
    expect(evaluateCondition("equals", [1, 2], [2, 1])).toBe(false);
    expect(evaluateCondition("equals", { a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(evaluateCondition("equals", [], {})).toBe(false);
    expect(evaluateCondition("equals", ["a"], "a")).toBe(false);
  });

  it("notEquals is the negation of equals", () => {
    expect(evaluateCondition("notEquals", "a", "b")).toBe(true);
    expect(evaluateCondition("notEquals", 5, "5")).toBe(false);
  });

  it("contains looks in strings and arrays", () => {
    expect(evaluateCondition("contains", "hello world", "lo w")).toBe(true);
    expect(evaluateCondition("contains", "hello", "bye")).toBe(false);
    expect(evaluateCondition("contains", "item 42", 42)).toBe(true);
    expect(evaluateCondition("contains", ["a", 5, { k: 1 }], "5")).toBe(true);
    expect(evaluateCondition("contains", ["a", 5, { k: 1 }], { k: 1 })).toBe(true);
    expect(evaluateCondition("contains", ["a"], "b")).toBe(false);
    expect(evaluateCondition("contains", { a: 1 }, "a")).toBe(false);
    expect(evaluateCondition("contains", 12345, 234)).toBe(false);
  });

  it("exists is false only for undefined, null and the empty string", () => {
    expect(evaluateCondition("exists", "x", undefined)).toBe(true);
    expect(evaluateCondition("exists", 0, null)).toBe(true);
    expect(evaluateCondition("exists", false, null)).toBe(true);
    expect(evaluateCondition("exists", "", "ignored")).toBe(false);
    expect(evaluateCondition("exists", null, "ignored")).toBe(false);
    expect(evaluateCondition("exists", undefined, "ignored")).toBe(false);
  });

  it("gt, gte, lt, lte compare numbers and numeric strings only", () => {
    expect(evaluateCondition("gt", 10, 9)).toBe(true);
    expect(evaluateCondition("gt", "10", "9")).toBe(true);
    expect(evaluateCondition("gt", 9, 9)).toBe(false);
    expect(evaluateCondition("gte", 9, "9")).toBe(true);
    expect(evaluateCondition("lt", "1.5", 2)).toBe(true);
    expect(evaluateCondition("lte", 3, 2)).toBe(false);
    expect(evaluateCondition("lt", "", 1)).toBe(false);
    expect(evaluateCondition("gte", null, 0)).toBe(false);
    expect(evaluateCondition("lt", true, 2)).toBe(false);
    expect(evaluateCondition("gt", "abc", 1)).toBe(false);
    expect(evaluateCondition("lt", [1], 2)).toBe(false);
    expect(evaluateCondition("gt", "Infinity", 1)).toBe(false);
  });
});
