import { describe, expect, it } from "vitest";
import { redactedJson, redactSecrets } from "../../../src/workflows/engine/redact";

describe("redactSecrets", () => {
  it("replaces secrets in nested string values and leaves keys and other values", () => {
    const input = {
      headers: { authorization: "Bearer tok_123", tok_123: "key stays" },
      list: ["tok_123", 42, null, { deep: "a tok_123 b tok_123" }],
      flag: true,
    };
    const output = redactSecrets(input, ["tok_123"]);
    expect(output).toEqual({
      headers: { authorization: "Bearer [redacted]", tok_123: "key stays" },
      list: ["[redacted]", 42, null, { deep: "a [redacted] b [redacted]" }],
      flag: true,
    });
    expect(input.headers.authorization).toBe("Bearer tok_123");
    expect(output.list).not.toBe(input.list);
  });

  it("covers nested and overlapping secrets fully and ignores empty ones", () => {
    expect(redactSecrets("xabcdefx", ["abc", "abcdef"])).toBe("x[redacted]x");
    expect(redactSecrets("xabcdx", ["abc", "bcd"])).toBe("x[redacted]x");
    expect(redactSecrets("aaa", ["aa"])).toBe("[redacted]");
    expect(redactSecrets("keep", ["", "zzz"])).toBe("keep");
  });

  it("does not match inside its own marker", () => {
    expect(redactSecrets("red and secret", ["red", "secret"])).toBe("[redacted] and [redacted]");
  });

  it("copies even when there is nothing to redact", () => {
    const input = { a: ["b"] };
    const output = redactSecrets(input, []);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
  });
});

describe("redactedJson", () => {
  it("equals JSON.stringify(redactSecrets(...)) without copying, and is plain JSON without secrets", () => {
    const value = { a: ["x-tok_123-y", { b: "tok_123" }], n: 5, tok_123: "key kept" };
    expect(redactedJson(value, ["tok_123"])).toBe(
      JSON.stringify(redactSecrets(value, ["tok_123"])),
    );
    expect(redactedJson(value, ["tok_123"])).toContain('"b":"[redacted]"');
    expect(redactedJson(value, [])).toBe(JSON.stringify(value));
  });
});
